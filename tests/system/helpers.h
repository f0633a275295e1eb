// Helpers for the system tests: run a command and capture its output, read session files.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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
// Data rows of a Pictor CSV (comment and header lines skipped), split on commas.
std::vector<std::vector<std::string>> read_csv_rows(const std::string& path);
bool process_alive(int pid);

}  // namespace pictor::test
