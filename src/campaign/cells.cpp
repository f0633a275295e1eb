#include "campaign/cells.h"

#include <fmt/format.h>

#include <map>

#include "analysis/csv.h"
#include "core/error.h"

namespace pictor::campaign {

namespace {

constexpr const char* kCellColumns[] = {"cell",   "benchmark", "adapter",     "net",    "instances",   "repeat",
                                        "state",  "attempts",  "session_dir", "job_id", "exit_status", "wall_s",
                                        "run_id", "note"};

// Letters, digits and '-' only: the cell's folder name and nothing a shell or Slurm would read.
std::string slug(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (keep) out += c;
    else if (c == '.' ) out += 'p';
    else if (!out.empty() && out.back() != '-' && (c == '-' || c == ',' || c == ':' || c == '_' || c == ' ')) out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.substr(0, 40);
}

std::string opt_text(const std::optional<int>& v) { return v ? std::to_string(*v) : ""; }
std::string opt_text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : ""; }
std::string opt_text(const std::optional<double>& v) { return v ? fmt::format("{:.3f}", *v) : ""; }

std::string row(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + analysis::csv_field(fields[i]);
  return out + "\n";
}

}  // namespace

std::string Cell::folder() const {
  return fmt::format("{:03d}-{}-{}-{}-n{}-r{}", id, slug(benchmark_name), slug(adapter), net == "none" ? "none" : slug(net),
                     instances, repeat);
}

std::vector<Cell> expand_cells(const Plan& plan) {
  std::vector<Cell> cells;
  int id = 0;
  for (int r = 1; r <= plan.repeats; ++r)
    for (std::size_t b = 0; b < plan.benchmarks.size(); ++b)
      for (const AxisValue& a : plan.adapters)
        for (const AxisValue& n : plan.nets)
          for (const int count : plan.instances) {
            Cell c;
            c.id = ++id;
            c.benchmark = b;
            c.benchmark_name = plan.benchmarks[b].name;
            c.adapter = a.text;
            c.net = n.text;
            c.instances = count;
            c.repeat = r;
            cells.push_back(std::move(c));
          }
  return cells;
}

std::string cells_csv(const std::vector<Cell>& cells) {
  std::string out = row(std::vector<std::string>(std::begin(kCellColumns), std::end(kCellColumns)));
  for (const Cell& c : cells)
    out += row({std::to_string(c.id), c.benchmark_name, c.adapter, c.net, std::to_string(c.instances), std::to_string(c.repeat),
                c.state, std::to_string(c.attempts), c.session_dir, c.job_id, opt_text(c.exit_status), opt_text(c.wall_s),
                opt_text(c.run_id), c.note});
  return out;
}

std::string attempts_csv(const std::vector<Attempt>& attempts) {
  std::string out = row({"cell", "attempt", "job_id", "state", "scheduler_state", "exit_status", "wall_s", "session_dir", "run_id",
                         "note"});
  for (const Attempt& a : attempts)
    out += row({std::to_string(a.cell), std::to_string(a.attempt), a.job_id, a.state, a.scheduler_state, opt_text(a.exit_status),
                opt_text(a.wall_s), a.session_dir, opt_text(a.run_id), a.note});
  return out;
}

std::vector<Cell> parse_cells_csv(const std::string& text, const std::string& file) {
  analysis::CsvReader reader(text, file);
  analysis::CsvRow r;
  if (!reader.next(r)) throw UsageError(file + ": empty, not a campaign's cells.csv");
  const analysis::CsvHeader header(r, file);
  std::map<std::string, std::size_t> at;
  for (const char* name : kCellColumns) at[name] = header.require(name);
  std::vector<Cell> cells;
  std::vector<std::string> notes;
  while (reader.next(r)) {
    if (!analysis::check_row_width(r, header, notes)) continue;
    const auto f = [&](const char* name) -> const std::string& { return r.fields[at[name]]; };
    const auto integer = [&](const char* name) { return analysis::field_int64(r, header, at[name]); };
    Cell c;
    c.id = static_cast<int>(integer("cell"));
    c.benchmark_name = f("benchmark");
    c.adapter = f("adapter");
    c.net = f("net");
    c.instances = static_cast<int>(integer("instances"));
    c.repeat = static_cast<int>(integer("repeat"));
    c.state = f("state");
    c.attempts = static_cast<int>(integer("attempts"));
    c.session_dir = f("session_dir");
    c.job_id = f("job_id");
    if (!f("exit_status").empty()) c.exit_status = static_cast<int>(integer("exit_status"));
    c.wall_s = analysis::field_optional_nonnegative(r, header, at["wall_s"]);
    if (!f("run_id").empty()) c.run_id = integer("run_id");
    c.note = f("note");
    cells.push_back(std::move(c));
  }
  return cells;
}

std::string format_status(const std::vector<Cell>& cells) {
  std::string out = fmt::format("{:>4}  {:<16} {:<8} {:<18} {:>3} {:>3}  {:<11} {:>3}  {:<8} {:>4} {:>8} {:>6}  {}\n", "cell",
                                "benchmark", "adapter", "net", "n", "rep", "state", "try", "job", "exit", "wall s", "run", "note");
  std::map<std::string, int> counts;
  for (const Cell& c : cells) {
    ++counts[c.state];
    out += fmt::format("{:>4}  {:<16} {:<8} {:<18} {:>3} {:>3}  {:<11} {:>3}  {:<8} {:>4} {:>8} {:>6}  {}\n", c.id,
                       c.benchmark_name.substr(0, 16), c.adapter.substr(0, 8), c.net.substr(0, 18), c.instances, c.repeat, c.state,
                       c.attempts, c.job_id.empty() ? "-" : c.job_id, c.exit_status ? std::to_string(*c.exit_status) : "-",
                       c.wall_s ? fmt::format("{:.1f}", *c.wall_s) : "-", c.run_id ? std::to_string(*c.run_id) : "-", c.note);
  }
  std::string summary;
  for (const auto& [state, n] : counts) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, state);
  return out + fmt::format("{} cells: {}\n", cells.size(), summary);
}

}  // namespace pictor::campaign
