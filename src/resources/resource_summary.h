// The figures of resources.csv and counters.csv (docs/resources.md): summary.json's `resources`
// block, `pictor analyze`'s resources table and trace.json's counter tracks — every number from
// the recorded rows, unknown ones null with the recorded reason.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pictor::resources {

// resources.csv as read back: process rows by (stack/role, pid), machine rows by (role, name).
struct ProcessPoint {
  std::int64_t t_ns = 0;
  double cpu_s = 0;  // user + system
  std::optional<double> rss_kb, switches;
};
struct ProcessSeries {
  std::string key;   // role, or STACK/role when the row names a stack
  std::string role;
  int pid = 0;
  std::string name;
  std::vector<ProcessPoint> points;
};
struct MetricPoint {
  std::int64_t t_ns = 0;
  double value = 0;
  double busy_s = 0;  // cpu rows: user + system
};
struct MetricSeries {
  std::string role, name, unit;
  std::vector<MetricPoint> points;
};
struct CounterValue {
  std::string key, role, event;
  int pid = 0;
  std::string name;
  std::optional<double> value;   // the last reading
  std::string unavailable;
  std::string note;              // of a counted event: "user space only (…)"
};
struct ResourceSeries {
  std::vector<std::int64_t> samples;          // the sample instants, ascending
  std::vector<ProcessSeries> processes;
  std::vector<MetricSeries> metrics;
  std::map<std::string, std::string> notes;   // role ("network", "gpu", "power") → source or "unavailable: …"
  std::vector<CounterValue> counters;
  std::vector<std::string> read_notes;        // a last row cut short, …
};

// Parses the texts (path names the file in errors: "<path>:<line>: …", UsageError).
ResourceSeries parse_resources(const std::string& resources_csv, const std::string& path,
                               const std::string& counters_csv = "", const std::string& counters_path = "");
// Reads DIR/resources.csv (and counters.csv when present); nullopt when there is no resources.csv.
std::optional<ResourceSeries> load_resources(const std::string& session_dir);

// summary.json's `resources` block (schema in docs/resources.md).
nlohmann::json summarize_resources(const ResourceSeries& series);
// The table `pictor analyze` prints.
std::string format_resources(const nlohmann::json& block);

// Adds counter tracks (CPU % per role, RSS per role, network rate) to a trace built by
// report::build_trace; moves the trace's origin earlier when the first sample precedes it.
void add_resource_tracks(nlohmann::json& trace, const ResourceSeries& series);

}  // namespace pictor::resources

namespace pictor::resources {

// The rows of one stack of a sampler that watched several (resources.csv's stack column): its
// processes and counters under their bare roles, the machine's rows as they are, its own network
// rows (ResourceSampler::add_stack_network) as `network`; Pictor's own process (no stack) is left
// out, and without its own network rows the network says `network_reason`.
ResourceSeries stack_series(const ResourceSeries& all, const std::string& stack, const std::string& network_reason);

}  // namespace pictor::resources
