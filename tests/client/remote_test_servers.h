// Support for the remote client's system tests: VNC servers in child processes (Xvnc with its
// own X display; x11vnc on an existing display) and the hooked pictor-app on a display.
#pragma once
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace pictor::client::test {

// A TCP port on 127.0.0.1 that was free a moment ago.
int free_tcp_port();
// Waits up to timeout_s until 127.0.0.1:port accepts a connection (which is closed again at once).
bool wait_for_port(int port, double timeout_s);

// A child process in its own process group, killed (SIGTERM, then SIGKILL) by the destructor.
class ChildProcess {
 public:
  // stderr goes to `log_path` (empty: /dev/null); `env` adds NAME=VALUE entries. keep_fd stays
  // open in the child. Throws std::runtime_error when the program cannot be started.
  ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
               const std::string& log_path = "", int keep_fd = -1);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  pid_t pid() const { return pid_; }
  bool running();
  // SIGTERM, then SIGKILL after grace_s; returns the exit code (-1: killed or not waited).
  int stop(double grace_s = 3.0);

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
};

// TigerVNC's Xvnc on a free display and port: an X server and a VNC server in one process.
class TestXvnc {
 public:
  explicit TestXvnc(const std::string& geometry, const std::vector<std::string>& extra = {});
  const std::string& display() const { return display_; }
  int port() const { return port_; }

 private:
  std::string display_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace pictor::client::test
