// A finished session directory read once for what is drawn and compared from it: summary.json,
// run.json, the frames (whole session and the part the figures describe), inputs.csv and, when
// sampled, resources.csv. Shared by the report, `pictor compare` and the bottleneck verdict.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/frame_series.h"
#include "analysis/play_window.h"

namespace pictor::analysis {

// inputs.csv (docs/client.md) by column name: one entry per input sent, in file order.
struct InputRows {
  bool present = false;
  std::vector<std::int64_t> sent_ns;
  std::vector<std::string> status;  // matched, not_read, no_response_frame, not_seen
  std::vector<double> rtt_ms;       // NaN unless matched
  // The stage, wait and overlap columns the file has ("CS_ms" … "unattributed_ms", "RD_ms",
  // "FC_ms"), in file order, and their values per input (NaN where empty).
  std::vector<std::string> columns;
  std::vector<std::vector<double>> values;
  const std::vector<double>* column(std::string_view name) const;
  std::size_t matched() const;
};

// Throws UsageError "<path>:<line>: <cause>" on malformed content.
InputRows read_inputs_csv(const std::string& path);

// resources.csv, when a sampler wrote one: the columns are found by name (a time: `t_ns` or
// `time_ns`; a process: `component`, `process` or `name`; `cpu_pct`: percent of one core;
// optional `rss_kib`). Columns it does not have are unknown, not zero.
struct ResourceSamples {
  bool present = false;
  std::string problem;  // why the file could not be used ("" when it could)
  std::vector<std::int64_t> t_ns;
  std::vector<std::string> component;
  std::vector<double> cpu_pct;  // NaN where unknown
  std::vector<double> rss_kib;  // NaN where unknown
};
ResourceSamples read_resources_csv(const std::string& path);

struct SessionData {
  std::string dir;
  nlohmann::json run;      // run.json; null when absent
  nlohmann::json summary;  // summary.json; null when absent
  LaunchRecord launch;
  bool have_frames = false;
  FrameSeries frames;  // the whole session, with its end from run.json
  FrameSeries figure;  // what summary.json's frame figures describe (play, for a profile)
  InputRows inputs;
  ResourceSamples resources;
  std::vector<std::string> notes;  // what could not be read, one sentence each
};

// Reads DIR. Throws UsageError when DIR is not a session directory (no run.json, summary.json or
// frames.csv) or summary.json/run.json is not JSON; a frames.csv or inputs.csv that cannot be
// read is noted and left out, so a report can still say what is there.
SessionData load_session_data(const std::string& dir);

// A JSON file; null when it does not exist. Throws UsageError "<path>: not JSON: <cause>".
nlohmann::json read_json_file(const std::string& path);

// j[k1][k2]…, or null when a key is missing or a level is not an object.
const nlohmann::json& json_at(const nlohmann::json& j, std::initializer_list<std::string_view> keys);
// The number at that place; NaN when it is missing, null or not a number.
double json_number(const nlohmann::json& j, std::initializer_list<std::string_view> keys);

}  // namespace pictor::analysis
