// Outside text in Pictor's own messages and tables: an input file read whole with a size cap,
// any bytes it held quoted inside one short error line, and numbers fitted into table columns.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace pictor {

// The largest input file Pictor reads whole: a frames.csv of a day of play at 144 FPS is 0.8 GB.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{1} << 30;

// The content of the input file at `path`. Throws UsageError "<path>: <cause>" when it cannot be
// opened, is a directory, is neither a regular file nor a pipe (a device or a socket: /dev/zero
// never ends), or holds more than `max_bytes` (a pipe is read up to that much, then refused).
std::string read_input_file(const std::string& path, std::uintmax_t max_bytes = kMaxInputFileBytes);

// `text` as it may stand inside an error line: every byte outside printable ASCII (a NUL, a line
// end, an escape sequence, UTF-8) is written \xNN, and after `max_bytes` of the input the rest is
// left out, marked "...". The result is one line of plain text whatever the input held.
std::string quote_for_error(std::string_view text, std::size_t max_bytes = 80);

// `value` in at most `width` characters, so that a table's columns never run together: fixed
// with `decimals` decimals when that fits, else scientific with as many digits as fit
// ("1.23e+15"). A width too small for any form gets the shortest scientific form.
std::string fit_number(double value, int width, int decimals);

}  // namespace pictor
