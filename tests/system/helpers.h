// Helpers for the system tests: run a command and capture its output, read session files.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace pictor::runner {
struct SpawnOptions;
}

namespace pictor::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  std::string last_err_line() const;
};

// Runs argv (no shell) with stdout/stderr captured.
CommandResult run_command(const std::vector<std::string>& argv);
// A fresh empty directory under the build tree's temp area.
std::string fresh_dir(const std::string& name);
nlohmann::json read_json(const std::string& path);
// Data rows of a Pictor CSV (comment lines skipped; the header row too unless keep_header), split
// on commas.
std::vector<std::vector<std::string>> read_csv_rows(const std::string& path, bool keep_header = false);
bool process_alive(int pid);

// An interposer's crash bound: the app of `o` (recording into `dir`) is SIGKILLed after it ran
// `run_ms`, then the last complete row of DIR/frames.csv is read.
struct KilledApp {
  bool running_at_kill = false;    // false: it had ended by itself, and was not killed
  std::int64_t kill_ns = 0;        // monotonic time of the kill
  std::size_t rows = 0;            // data rows of frames.csv
  std::int64_t last_frame_ns = 0;  // the swap or present time of its last complete row (a kill can cut the final line)
};
KilledApp kill_mid_run(const runner::SpawnOptions& o, const std::string& dir, int run_ms);

}  // namespace pictor::test
