#include "colour_rtt.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "analysis/csv.h"
#include "core/error.h"

namespace pictor::bench {

namespace fs = std::filesystem;

int latency_parity(const ColourCapture& c) {
  // The two backgrounds differ by 0.7 x 255 = 178 in red - blue; half of that separates them
  // with room for dithering or a capture that mixes a little of something else.
  const double d = c.r - c.b;
  if (d > 89) return 1;
  if (d < -89) return 0;
  return -1;
}

ColourRtt colour_rtt(const std::vector<std::int64_t>& sent_ns, const std::vector<ColourCapture>& captures) {
  ColourRtt out;
  out.sent = sent_ns.size();
  std::size_t c = 0;             // first capture not yet passed
  bool previous_seen = true;     // input 0 (the start) is "seen": the first frame shows parity 0
  for (std::size_t i = 0; i < sent_ns.size(); ++i) {
    const int want = static_cast<int>((i + 1) % 2);
    const std::int64_t next_send =
        i + 1 < sent_ns.size() ? sent_ns[i + 1] : std::numeric_limits<std::int64_t>::max();
    while (c < captures.size() && captures[c].seen_ns <= sent_ns[i]) ++c;
    std::optional<std::int64_t> seen;
    for (std::size_t k = c; k < captures.size() && captures[k].seen_ns < next_send; ++k) {
      if (latency_parity(captures[k]) == want) {
        seen = captures[k].seen_ns;
        break;
      }
    }
    if (!previous_seen) {
      ++out.ambiguous;
    } else if (!seen) {
      ++out.not_seen;
    } else {
      out.rtt_ms.push_back(static_cast<double>(*seen - sent_ns[i]) / 1e6);
    }
    previous_seen = seen.has_value();
  }
  return out;
}

namespace {

// The rows of a Pictor CSV file (schema comment line, header, rows) as named columns.
struct Table {
  std::string path;
  std::string text;
  std::vector<analysis::CsvRow> rows;
  std::optional<analysis::CsvHeader> header;
};

Table read_table(const fs::path& path) {
  Table t;
  t.path = path.string();
  std::ifstream in(path);
  if (!in) throw RunError("cannot read " + t.path);
  std::stringstream ss;
  ss << in.rdbuf();
  t.text = ss.str();
  analysis::CsvReader reader(t.text, t.path);
  analysis::CsvRow row;
  while (reader.next(row)) {
    if (!row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#') continue;
    if (!t.header) t.header.emplace(row, t.path);
    else t.rows.push_back(row);
  }
  if (!t.header) throw RunError(t.path + ": no header");
  return t;
}

}  // namespace

ColourRtt session_colour_rtt(const std::string& session_dir) {
  const fs::path dir(session_dir);
  const Table inputs = read_table(dir / "client_inputs.csv");
  const Table reads = read_table(dir / "inputs_read.csv");
  const Table colours = read_table(dir / "client_colours.csv");
  std::vector<std::int64_t> sent;
  const std::size_t sent_col = inputs.header->require("sent_ns");
  for (const auto& r : inputs.rows) sent.push_back(analysis::field_int64(r, *inputs.header, sent_col));
  std::vector<ColourCapture> captures;
  const auto& h = *colours.header;
  const std::size_t seen = h.require("seen_ns"), rc = h.require("r"), gc = h.require("g"), bc = h.require("b");
  for (const auto& r : colours.rows) {
    captures.push_back({analysis::field_int64(r, h, seen), analysis::field_double(r, h, rc),
                        analysis::field_double(r, h, gc), analysis::field_double(r, h, bc)});
  }
  if (reads.rows.size() != sent.size()) {
    ColourRtt out;
    out.sent = sent.size();
    out.failure = fmt::format("the app read {} of {} inputs: the colour parity rule needs all", reads.rows.size(),
                              sent.size());
    return out;
  }
  return colour_rtt(sent, captures);
}

}  // namespace pictor::bench
