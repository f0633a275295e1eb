#include "runner/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "core/clock.h"

#include "core/error.h"

extern char** environ;

namespace pictor::runner {

std::string signal_name(int sig) {
  const char* name = sigabbrev_np(sig);
  return name ? std::string("SIG") + name : "signal " + std::to_string(sig);
}

std::string ExitStatus::describe() const {
  if (exited) return "exit " + std::to_string(code);
  return "killed by " + signal_name(signal);
}

bool is_crash_signal(int sig) {
  switch (sig) {
    case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGABRT: case SIGTRAP: case SIGSYS:
    case SIGXCPU: case SIGXFSZ: case SIGPIPE:
      return true;
    default:
      return false;
  }
}

const char* ended_by_name(EndedBy e) {
  switch (e) {
    case EndedBy::pictor:
      return "pictor";
    case EndedBy::itself:
      return "itself";
    case EndedBy::outside:
      return "outside";
    case EndedBy::running:
      break;
  }
  return "running";
}

Process Process::spawn(const SpawnOptions& options) {
  if (options.argv.empty()) throw UsageError("no command given");
  const auto exe = find_executable(options.argv[0]);
  if (!exe) throw UsageError("command not found: " + options.argv[0]);

  // Build argv and envp before fork: the child must only call async-signal-safe functions.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (options.env.count(entry.substr(0, eq))) continue;
    env_strings.push_back(entry);
  }
  for (const auto& [k, v] : options.env)
    if (!v.empty()) env_strings.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (const auto& a : options.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  int out_fd = -1, err_fd = -1;
  if (!options.stdout_path.empty())
    out_fd = ::open(options.stdout_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (!options.stderr_path.empty())
    err_fd = ::open(options.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) throw RunError("pipe: " + std::string(strerror(errno)));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw RunError("fork: " + std::string(strerror(errno)));
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    if (out_fd >= 0) ::dup2(out_fd, 1);
    if (err_fd >= 0) ::dup2(err_fd, 2);
    if (options.keep_fd >= 0 && options.keep_fd_as >= 0 && options.keep_fd_as != options.keep_fd) {
      // The failure report must survive the move: dup2 onto its number would close it.
      if (report[1] == options.keep_fd_as) report[1] = ::fcntl(report[1], F_DUPFD_CLOEXEC, options.keep_fd_as + 1);
      ::dup2(options.keep_fd, options.keep_fd_as);  // the copy has no FD_CLOEXEC
    } else if (options.keep_fd >= 0) {
      const int flags = ::fcntl(options.keep_fd, F_GETFD);
      ::fcntl(options.keep_fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    ::execve(exe->c_str(), argv.data(), envp.data());
    const int err = errno;
    [[maybe_unused]] auto n = ::write(report[1], &err, sizeof err);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // both sides, so signalling the group never races the child's setpgid
  ::close(report[1]);
  if (out_fd >= 0) ::close(out_fd);
  if (err_fd >= 0) ::close(err_fd);
  int child_errno = 0;
  const auto n = ::read(report[0], &child_errno, sizeof child_errno);
  ::close(report[0]);
  Process p;
  p.pid_ = pid;
  p.name_ = options.name.empty() ? options.argv[0] : options.name;
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    p.wait_for(-1);
    throw UsageError("cannot start " + options.argv[0] + ": " + strerror(child_errno));
  }
  return p;
}

Process::Process(Process&& other) noexcept
    : pid_(other.pid_),
      inner_(other.inner_),
      name_(std::move(other.name_)),
      status_(std::move(other.status_)),
      ended_ns_(other.ended_ns_),
      stop_signal_(other.stop_signal_),
      grace_s_(other.grace_s_),
      was_suspended_(other.was_suspended_) {
  other.pid_ = -1;
}

Process& Process::operator=(Process&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0 && !status_) stop(0.5);
    pid_ = other.pid_;
    inner_ = other.inner_;
    name_ = std::move(other.name_);
    status_ = std::move(other.status_);
    ended_ns_ = other.ended_ns_;
    stop_signal_ = other.stop_signal_;
    grace_s_ = other.grace_s_;
    was_suspended_ = other.was_suspended_;
    other.pid_ = -1;
  }
  return *this;
}

Process::~Process() {
  if (pid_ > 0 && !status_) stop(0.5);
}

static ExitStatus to_status(int raw) {
  ExitStatus s;
  if (WIFEXITED(raw)) {
    s.exited = true;
    s.code = WEXITSTATUS(raw);
  } else if (WIFSIGNALED(raw)) {
    s.signal = WTERMSIG(raw);
  }
  return s;
}

void Process::reaped(int raw) {
  status_ = to_status(raw);
  ended_ns_ = monotonic_ns();
}

bool Process::running() {
  if (pid_ <= 0 || status_) return false;
  int raw = 0;
  const pid_t r = ::waitpid(pid_, &raw, WNOHANG);
  if (r == pid_) {
    reaped(raw);
    return false;
  }
  return r == 0;
}

bool Process::suspended() const {
  if (pid_ <= 0 || status_) return false;
  std::ifstream in("/proc/" + std::to_string(pid()) + "/stat");
  std::string stat;
  std::getline(in, stat);
  // "PID (comm) S ...": the state follows the last ')', as comm may hold spaces and parentheses.
  const auto paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 2 >= stat.size()) return false;
  const char state = stat[paren + 2];
  return state == 'T' || state == 't';
}

EndedBy Process::ended_by() const {
  if (!status_) return EndedBy::running;
  if (stop_signal_ != 0) {
    // After Pictor's SIGTERM an exit or SIGTERM is its answer, SIGKILL is Pictor's; a crash while
    // it shut down is still its own.
    if (!status_->exited && is_crash_signal(status_->signal)) return EndedBy::itself;
    return EndedBy::pictor;
  }
  if (status_->exited || is_crash_signal(status_->signal)) return EndedBy::itself;
  return EndedBy::outside;
}

std::optional<ExitStatus> Process::wait_for(double timeout_s) {
  if (pid_ <= 0) return std::nullopt;
  if (status_) return status_;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    int raw = 0;
    const pid_t r = ::waitpid(pid_, &raw, timeout_s < 0 ? 0 : WNOHANG);
    if (r == pid_) {
      reaped(raw);
      return status_;
    }
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (timeout_s >= 0 && std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void Process::signal_group(int sig) {
  if (pid_ <= 0 || status_) return;
  // The launcher goes when its program does (with its status): a signal for it alone would end
  // the launcher and leave the program running.
  if (inner_ > 0) ::kill(inner_, sig);
  else ::kill(-pid_, sig);
}

ExitStatus Process::stop(double grace_s) {
  // One look first: a process that has already died (killed from outside, crashed) is reaped here,
  // so its end is not taken for the answer to Pictor's SIGTERM.
  if (pid_ > 0 && !status_) running();
  if (status_) {
    ::kill(-pid_, SIGKILL);  // leftovers of the group (children of an exited leader)
    return *status_;
  }
  if (pid_ <= 0) return ExitStatus{};
  was_suspended_ = suspended();
  grace_s_ = grace_s;
  stop_signal_ = SIGTERM;
  signal_group(SIGTERM);
  if (auto s = wait_for(grace_s)) {
    ::kill(-pid_, SIGKILL);
    return *s;
  }
  stop_signal_ = SIGKILL;
  if (inner_ > 0) ::kill(inner_, SIGKILL);
  ::kill(-pid_, SIGKILL);
  return wait_for(-1).value_or(ExitStatus{});
}

}  // namespace pictor::runner
