#include "core/exec.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "core/error.h"

namespace pictor {

namespace {

bool executable_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> find_executable(const std::string& program, const std::vector<std::string>& also_in) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) return executable_file(program) ? std::optional(program) : std::nullopt;
  std::vector<std::string> dirs;
  const char* path = std::getenv("PATH");
  const std::string list = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t start = 0; start <= list.size();) {
    const auto end = list.find(':', start);
    const std::string dir = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    dirs.push_back(dir.empty() ? "." : dir);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  dirs.insert(dirs.end(), also_in.begin(), also_in.end());
  for (const auto& d : dirs)
    if (executable_file(d + "/" + program)) return d + "/" + program;
  return std::nullopt;
}

CommandOutput run_and_capture(const std::vector<std::string>& argv) {
  if (argv.empty()) throw RunError("run_and_capture: no command");
  int fds[2];
  if (::pipe(fds) != 0) throw RunError("pipe failed while running " + argv.front());
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw RunError("fork failed while running " + argv.front());
  }
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  CommandOutput r;
  char buf[512];
  for (;;) {
    const auto n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) r.output.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  while (!r.output.empty() && (r.output.back() == '\n' || r.output.back() == ' ')) r.output.pop_back();
  return r;
}

}  // namespace pictor
