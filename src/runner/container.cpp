#include "runner/container.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "core/exec.h"
#include "runner/install_paths.h"

namespace pictor::runner {
namespace fs = std::filesystem;

namespace {

// podman's global options: crun refuses this machine's hybrid cgroups, runc with the cgroupfs
// manager works (docs/resources.md "Containers").
const std::vector<std::string> kGlobal{"--runtime", "runc", "--cgroup-manager=cgroupfs"};
const char* kNetwork = "slirp4netns:allow_host_loopback=false";

std::string last_line(const std::string& text) {
  const auto end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return {};
  const auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::vector<std::string> podman(const std::string& engine, std::vector<std::string> rest) {
  std::vector<std::string> argv{engine};
  argv.insert(argv.end(), kGlobal.begin(), kGlobal.end());
  argv.insert(argv.end(), rest.begin(), rest.end());
  return argv;
}

std::string ns_of(pid_t pid) {
  std::error_code ec;
  const auto target = fs::read_symlink(fmt::format("/proc/{}/ns/pid", pid), ec);
  return ec ? std::string() : target.string();
}

pid_t parent_of(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/status", pid));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("PPid:", 0) == 0) return static_cast<pid_t>(std::atoi(line.c_str() + 5));
  return -1;
}

bool environ_has(pid_t pid, const std::string& entry) {
  std::ifstream in(fmt::format("/proc/{}/environ", pid), std::ios::binary);
  std::string var;
  while (std::getline(in, var, '\0'))
    if (var == entry) return true;
  return false;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<pid_t> all_pids() {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string n = entry.path().filename().string();
    if (!n.empty() && std::all_of(n.begin(), n.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
      out.push_back(static_cast<pid_t>(std::atoi(n.c_str())));
  }
  return out;
}

// conmon by the pid podman names; slirp4netns by the network namespace it serves (its command
// line names the sandbox's path); the port forwarder's child by living in the container's network
// namespace outside its pid namespace, with its parent.
std::vector<nlohmann::json> find_helpers(pid_t init_pid, pid_t conmon, const std::string& sandbox) {
  std::vector<nlohmann::json> out;
  if (conmon > 0) out.push_back({{"name", "conmon"}, {"pid", conmon}});
  std::error_code ec;
  const auto net = fs::read_symlink(fmt::format("/proc/{}/ns/net", init_pid), ec).string();
  const std::string pid_ns = ns_of(init_pid);
  for (const pid_t p : all_pids()) {
    const std::string comm = read_text(fmt::format("/proc/{}/comm", p));
    if (comm == "slirp4netns\n" && !sandbox.empty() && read_text(fmt::format("/proc/{}/cmdline", p)).find(sandbox) != std::string::npos) {
      out.push_back({{"name", "slirp4netns"}, {"pid", p}});
      continue;
    }
    if (net.empty() || ns_of(p) == pid_ns || fs::read_symlink(fmt::format("/proc/{}/ns/net", p), ec).string() != net) continue;
    if (ec) continue;
    out.push_back({{"name", "rootlessport-child"}, {"pid", p}});
    if (const pid_t parent = parent_of(p); parent > 1 && read_text(fmt::format("/proc/{}/comm", parent)) == "rootlessport\n")
      out.push_back({{"name", "rootlessport"}, {"pid", parent}});
  }
  return out;
}

}  // namespace

std::vector<std::string> container_ulimits() {
  rlimit files{}, procs{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  ::getrlimit(RLIMIT_NPROC, &procs);
  const auto nofile = files.rlim_max == RLIM_INFINITY ? rlim_t{1048576} : files.rlim_max;
  const auto nproc = std::min<rlim_t>(procs.rlim_max, 32768);
  return {fmt::format("nofile={}:{}", nofile, nofile), fmt::format("nproc={}:{}", nproc, nproc)};
}

void check_container_spec(const ContainerSpec& spec) {
  if (spec.engine.empty()) {
    if (!spec.rootfs.empty() || !spec.cpus.empty() || !spec.memory.empty())
      throw UsageError("--rootfs, --cpus and --memory need --container podman");
    return;
  }
  if (spec.engine != "podman") throw UsageError("unknown --container '" + spec.engine + "' (known: podman)");
  if (!find_executable("podman"))
    throw UsageError("--container podman: podman is not installed (apt-get install podman runc slirp4netns)");
  if (!find_executable("runc", {"/usr/sbin", "/usr/bin"}))
    throw UsageError("--container podman: runc is not installed (podman runs here only with runc: apt-get install runc)");
  if (!find_executable("slirp4netns"))
    throw UsageError("--container podman: slirp4netns is not installed (the container's network: apt-get install slirp4netns)");
  if (spec.rootfs.empty())
    throw UsageError("--container podman needs --rootfs DIR (build one with scripts/container-rootfs.sh DIR)");
  std::error_code ec;
  if (!fs::is_directory(spec.rootfs, ec) || !fs::is_directory(fs::path(spec.rootfs) / "usr", ec) ||
      !fs::is_directory(fs::path(spec.rootfs) / "etc", ec))
    throw UsageError("--rootfs '" + spec.rootfs + "' is not a root file system (no usr/ and etc/ in it: build one with scripts/container-rootfs.sh " +
                     spec.rootfs + ")");
  if (!spec.cpus.empty()) {
    double cpus = 0;
    const auto [end, err] = std::from_chars(spec.cpus.data(), spec.cpus.data() + spec.cpus.size(), cpus);
    if (err != std::errc() || end != spec.cpus.data() + spec.cpus.size() || !(cpus > 0))
      throw UsageError("--cpus must be a positive number of CPUs such as 1.5 (got '" + spec.cpus + "')");
  }
  if (!spec.memory.empty()) {
    const std::string& m = spec.memory;
    const bool digits = !m.empty() && std::isdigit(static_cast<unsigned char>(m[0])) &&
                        std::all_of(m.begin(), m.end() - 1, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    const char unit = static_cast<char>(std::tolower(static_cast<unsigned char>(m.back())));
    if (!digits || !(std::isdigit(static_cast<unsigned char>(unit)) || unit == 'b' || unit == 'k' || unit == 'm' || unit == 'g'))
      throw UsageError("--memory must be a size such as 512m or 2g (got '" + m + "')");
  }
}

std::unique_ptr<Container> Container::start(const ContainerSpec& spec, const std::string& name, int port,
                                            const std::vector<std::string>& rw_dirs, const std::string& log_path) {
  std::unique_ptr<Container> c(new Container());
  c->engine_path_ = find_executable(spec.engine).value_or(spec.engine);
  c->name_ = name;
  c->spec_ = spec;
  c->port_ = port;
  c->log_path_ = log_path;
  // Pictor's own programs and libraries (pictor-app, the interposer, the proxy hook), read-only.
  const std::string tree = fs::weakly_canonical(fs::path(self_directory()) / "..").string();
  std::vector<std::string> rest{"run", "-d", "--name", name, "--network", kNetwork,
                                "-p", fmt::format("127.0.0.1:{}:{}", port, port)};
  for (const auto& u : container_ulimits()) rest.insert(rest.end(), {"--ulimit", u});
  rest.insert(rest.end(), {"-v", "/usr:/usr:ro", "-v", tree + ":" + tree + ":ro", "-v", "/tmp:/tmp"});
  for (const auto& d : rw_dirs) {
    const std::string abs = fs::absolute(d).string();
    rest.insert(rest.end(), {"-v", abs + ":" + abs});
  }
  if (!spec.cpus.empty()) rest.insert(rest.end(), {"--cpus", spec.cpus});
  if (!spec.memory.empty()) rest.insert(rest.end(), {"--memory", spec.memory});
  rest.insert(rest.end(), {"--rootfs", fs::absolute(spec.rootfs).string(), "/usr/bin/sleep", "infinity"});
  c->run_argv_ = podman(c->engine_path_, rest);
  const CommandOutput r = run_and_capture(c->run_argv_);
  std::ofstream(log_path, std::ios::app) << "$ podman run …\n" << r.output << "\n";
  if (r.exit_code != 0) {
    c->remove();
    c->removed_ = true;
    throw RunError("podman could not start the container (exit " + std::to_string(r.exit_code) + ": " + last_line(r.output) +
                   "), see " + log_path);
  }
  const CommandOutput inspect = run_and_capture(
      podman(c->engine_path_, {"inspect", "--format", "{{.State.Pid}} {{.State.ConmonPid}} {{.NetworkSettings.SandboxKey}}", name}));
  std::istringstream fields(inspect.exit_code == 0 ? inspect.output : std::string());
  pid_t conmon = -1;
  std::string sandbox;
  fields >> c->init_pid_ >> conmon >> sandbox;
  if (c->init_pid_ <= 0) {
    c->remove();
    throw RunError("podman started the container but does not say its pid (" + last_line(inspect.output) + ")");
  }
  c->helpers_ = find_helpers(c->init_pid_, conmon, sandbox);
  return c;
}

Container::~Container() { remove(); }

void Container::remove() {
  if (removed_) return;
  removed_ = true;
  const CommandOutput r = run_and_capture(podman(engine_path_, {"rm", "-f", "-t", "0", name_}));
  std::ofstream(log_path_, std::ios::app) << "$ podman rm -f -t 0 " << name_ << "\n" << r.output << "\n";
  removal_ = {{"exit_code", r.exit_code}, {"output", last_line(r.output)}};
}

Process Container::spawn(SpawnOptions options) const {
  static std::atomic<int> counter{0};
  const std::string marker = fmt::format("PICTOR_CONTAINER_TAG={}-{}", name_, ++counter);
  std::vector<std::string> rest{"exec", "--env", marker};
  for (const auto& [k, v] : options.env)
    if (!v.empty()) rest.insert(rest.end(), {"--env", k + "=" + v});
#ifdef PICTOR_SANITIZER_RUNTIME
  // The sanitizer build: the runtime's settings reach the servers inside as they reach the ones
  // outside (podman exec starts from the container's own environment).
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"})
    if (const char* v = std::getenv(name); v && *v && !options.env.count(name))
      rest.insert(rest.end(), {"--env", std::string(name) + "=" + v});
#endif
  if (options.keep_fd >= 0) {
    options.keep_fd_as = 3;
    rest.insert(rest.end(), {"--preserve-fds", "1"});
  }
  rest.push_back(name_);
  if (options.name.empty()) options.name = fs::path(options.argv.at(0)).filename().string();
  rest.insert(rest.end(), options.argv.begin(), options.argv.end());
  options.argv = podman(engine_path_, rest);
  options.env.clear();  // what the program gets is passed with --env above
  Process p = Process::spawn(options);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (p.running()) {
    if (const pid_t inner = find_container_process(init_pid_, marker); inner > 0) {
      p.adopt_inner(inner);
      return p;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      p.stop(0.5);
      throw RunError("podman exec started " + options.name + " but it did not appear in container " + name_ + " within 10 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return p;  // the launcher already ended: its status says why
}

nlohmann::json Container::describe() const {
  auto or_null = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  const CommandOutput v = run_and_capture({engine_path_, "--version"});
  return {{"engine", spec_.engine},
          {"engine_version", v.exit_code == 0 ? nlohmann::json(last_line(v.output)) : nlohmann::json(nullptr)},
          {"runtime", "runc"},
          {"cgroup_manager", "cgroupfs"},
          {"name", name_},
          {"rootfs", fs::absolute(spec_.rootfs).string()},
          {"network", kNetwork},
          {"published", fmt::format("127.0.0.1:{}:{}", port_, port_)},
          {"listen_address", listen_address()},
          {"cpus", or_null(spec_.cpus)},
          {"memory", or_null(spec_.memory)},
          {"ulimits", container_ulimits()},
          {"init_pid", init_pid_},
          {"helpers", helpers_},
          {"command_line", run_argv_},
          {"removed", removal_}};
}

int free_display_number() {
  std::set<int> abstract;
  std::ifstream unix_sockets("/proc/net/unix");
  std::string line;
  const std::string prefix = "@/tmp/.X11-unix/X";
  while (std::getline(unix_sockets, line))
    if (const auto at = line.find(prefix); at != std::string::npos) abstract.insert(std::atoi(line.c_str() + at + prefix.size()));
  std::error_code ec;
  for (int n = 100; n < 1000; ++n)
    if (!abstract.count(n) && !fs::exists(fmt::format("/tmp/.X11-unix/X{}", n), ec) && !fs::exists(fmt::format("/tmp/.X{}-lock", n), ec))
      return n;
  throw RunError("no free X display number between :100 and :999");
}

pid_t find_container_process(pid_t init_pid, const std::string& marker) {
  const std::string ns = ns_of(init_pid);
  if (ns.empty()) return -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string n = entry.path().filename().string();
    if (n.empty() || !std::all_of(n.begin(), n.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) continue;
    const auto pid = static_cast<pid_t>(std::atoi(n.c_str()));
    if (pid == init_pid || ns_of(pid) != ns || !environ_has(pid, marker)) continue;
    const pid_t parent = parent_of(pid);
    if (parent > 0 && ns_of(parent) == ns) continue;  // a child of the program, not the program
    return pid;
  }
  return -1;
}

}  // namespace pictor::runner
