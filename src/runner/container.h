// Containers (docs/resources.md "Containers"): `--container podman` runs a stack's X server, proxy
// and app inside one real podman container built from a local root file system
// (scripts/container-rootfs.sh), with --cpus/--memory passed through. The client stays outside
// and connects over the one port the container publishes on the host's loopback; the container's
// own network (slirp4netns) is reachable through nothing else. Each process runs through
// `podman exec`, which passes no signals on, so Pictor finds the program's host pid and signals it.
#pragma once
#include <sys/types.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "runner/process.h"

namespace pictor::runner {

struct ContainerSpec {
  std::string engine;  // "podman"; empty: no container
  std::string rootfs;  // the root file system directory (--rootfs)
  std::string cpus;    // podman --cpus ("1.5"); empty: no limit
  std::string memory;  // podman --memory ("512m"); empty: no limit
};

// Throws UsageError naming the cause for an engine other than podman, podman not installed, a
// rootfs that is not a root file system, a bad --cpus/--memory, or limits without a container.
// Starts nothing.
void check_container_spec(const ContainerSpec& spec);

// The --ulimit values given to podman: this process's hard limits for open files and processes
// (podman's defaults exceed them here), processes capped at 32768, the most podman 4 itself keeps.
std::vector<std::string> container_ulimits();

class Container {
 public:
  // Creates and starts the container `name` (its init only sleeps): publishes 127.0.0.1:port,
  // mounts /usr and Pictor's build or install tree read-only, /tmp (the X servers' sockets and
  // lock files, so displays are numbered as on the host) and each of `rw_dirs` read-write at the
  // same paths. Throws RunError with podman's last line when it cannot be started (nothing is
  // left then).
  static std::unique_ptr<Container> start(const ContainerSpec& spec, const std::string& name, int port,
                                          const std::vector<std::string>& rw_dirs, const std::string& log_path);
  ~Container();  // remove()
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;

  // Runs `options` inside through `podman exec` (its environment passed with -e, a keep_fd moved
  // to 3 and passed on); the Process adopts the program's host pid once it appears (throws
  // RunError when it does not within 10 s while the launcher still runs).
  Process spawn(SpawnOptions options) const;
  // The published port (the same inside and on the host's 127.0.0.1).
  int port() const { return port_; }
  // The address a server inside listens on for the published port: slirp4netns's guest address,
  // reachable only through that port.
  static const char* listen_address() { return "10.0.2.100"; }
  pid_t init_pid() const { return init_pid_; }
  // The engine's own processes that serve the container, {name, pid} as run.json has them:
  // conmon (its monitor), slirp4netns (its network), rootlessport and its child (the published
  // port's forwarder) — the container's cost beside the programs inside (resources.csv role
  // "container").
  const std::vector<nlohmann::json>& helpers() const { return helpers_; }
  const std::string& name() const { return name_; }
  // run.json's `container` block (docs/session-files.md).
  nlohmann::json describe() const;
  // `podman rm -f -t 0`: every process inside ends; idempotent.
  void remove();

 private:
  Container() = default;
  std::string engine_path_, name_, log_path_;
  ContainerSpec spec_;
  std::vector<std::string> run_argv_;
  int port_ = 0;
  pid_t init_pid_ = -1;
  std::vector<nlohmann::json> helpers_;
  bool removed_ = false;
  nlohmann::json removal_ = nullptr;
};

// An X display number no X server of the host uses: neither its socket in /tmp/.X11-unix nor its
// lock file in /tmp, nor its abstract socket in the host's network namespace (/proc/net/unix).
// A server in a container has its own abstract namespace, so its own choice (-displayfd) could
// take a number the host's servers hold there, and the runner's X connection would reach theirs.
int free_display_number();

// The host pid of the process in the pid namespace of `init_pid` whose environment holds
// `marker` ("PICTOR_CONTAINER_TAG=…") and whose parent is outside that namespace (the program a
// `podman exec` started, not its children); -1 when there is none (yet).
pid_t find_container_process(pid_t init_pid, const std::string& marker);

}  // namespace pictor::runner
