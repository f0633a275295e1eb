#include "helpers.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/clock.h"
#include "runner/process.h"

namespace pictor::test {
namespace fs = std::filesystem;

std::string CommandResult::last_err_line() const {
  std::string e = err;
  while (!e.empty() && e.back() == '\n') e.pop_back();
  const auto nl = e.rfind('\n');
  return nl == std::string::npos ? e : e.substr(nl + 1);
}

static std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CommandResult run_command(const std::vector<std::string>& argv) {
  const std::string dir = fresh_dir("cmd");
  runner::SpawnOptions o;
  o.argv = argv;
  o.stdout_path = dir + "/out";
  o.stderr_path = dir + "/err";
  CommandResult r;
  auto p = runner::Process::spawn(o);
  const auto st = p.wait_for(-1);
  r.exit_code = st && st->exited ? st->code : 128 + (st ? st->signal : 0);
  r.out = slurp(dir + "/out");
  r.err = slurp(dir + "/err");
  return r;
}

std::string fresh_dir(const std::string& name) {
  static int counter = 0;
  const fs::path p = fs::temp_directory_path() /
                     ("pictor-test-" + std::to_string(getpid()) + "-" + name + "-" + std::to_string(counter++));
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  return nlohmann::json::parse(in);
}

std::vector<std::vector<std::string>> read_csv_rows(const std::string& path, bool keep_header) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool header = keep_header;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      header = true;
      continue;
    }
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, ',')) cells.push_back(cell);
    if (line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

bool process_alive(int pid) { return pid > 0 && ::kill(pid, 0) == 0; }

KilledApp kill_mid_run(const runner::SpawnOptions& o, const std::string& dir, int run_ms) {
  KilledApp k;
  auto app = runner::Process::spawn(o);
  std::this_thread::sleep_for(std::chrono::milliseconds(run_ms));
  k.running_at_kill = app.running();
  if (!k.running_at_kill) return k;
  k.kill_ns = monotonic_ns();
  ::kill(app.pid(), SIGKILL);
  app.wait_for(-1);
  const auto rows = read_csv_rows(dir + "/frames.csv");
  k.rows = rows.size();
  for (const auto& row : rows)
    if (row.size() >= 9) k.last_frame_ns = std::stoll(row[2]);
  return k;
}

}  // namespace pictor::test
