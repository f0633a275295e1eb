// Outside text in Pictor's own messages and tables: any bytes an input held quoted inside one
// short error line, and numbers fitted into table columns. (Input files are read by
// files::read_input_file, core/files.h.)
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace pictor {

// `text` as it may stand inside an error line: every byte outside printable ASCII (a NUL, a line
// end, an escape sequence, UTF-8) is written \xNN, and after `max_bytes` of the input the rest is
// left out, marked "...". The result is one line of plain text whatever the input held.
std::string quote_for_error(std::string_view text, std::size_t max_bytes = 80);

// `value` in at most `width` characters, so that a table's columns never run together: fixed
// with `decimals` decimals when that fits, else scientific with as many digits as fit
// ("1.23e+15"). A width too small for any form gets the shortest scientific form.
std::string fit_number(double value, int width, int decimals);

}  // namespace pictor
