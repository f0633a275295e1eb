#include "helpers.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

std::vector<std::vector<std::string>> read_csv_rows(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool header = false;
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

}  // namespace pictor::test
