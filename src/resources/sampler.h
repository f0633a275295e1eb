// The resource sampler (DESIGN §4, docs/resources.md): a thread of the runner — never of the app —
// that every interval reads /proc for the processes it is given (with their roles), the machine's
// CPUs, memory and load, the session's network bytes, the GPU and power where offered, and the
// processes' perf counters, and appends them to resources.csv and counters.csv. It knows nothing
// of sessions: a runner gives it PIDs with roles, one sampler per session or one for many stacks
// (the `stack` column tells them apart).
#pragma once
#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace pictor::resources {

// The roles of resources.csv. Xvnc is display server and proxy in one process: "xserver+proxy".
namespace role {
inline constexpr const char* kApp = "app";
inline constexpr const char* kAppChild = "app-child";  // a descendant of the app, found while it runs
inline constexpr const char* kXServer = "xserver";
inline constexpr const char* kProxy = "proxy";
inline constexpr const char* kXServerProxy = "xserver+proxy";
inline constexpr const char* kRelay = "relay";         // the network relay's thread (inside the client process)
inline constexpr const char* kClient = "client";       // Pictor's own process: client, relay and sampler threads
inline constexpr const char* kSampler = "sampler";     // the sampler's own thread (inside the client process)
inline constexpr const char* kContainer = "container"; // --container: the engine's helpers (conmon, slirp4netns, …)
inline constexpr const char* kAgent = "agent";         // two hosts: pictor serve's session process on the render host
}  // namespace role

// The shortest and longest --sample-interval: under 10 ms the sampler's own cost shows in what it
// measures; over 10 s a session has too few samples for a p95.
inline constexpr double kMinSampleIntervalS = 0.010;
inline constexpr double kMaxSampleIntervalS = 10.0;
inline constexpr double kDefaultSampleIntervalS = 0.100;

struct NetworkCounts {
  std::uint64_t up = 0;    // client → proxy
  std::uint64_t down = 0;  // proxy → client
};
struct NetworkSource {
  std::string what;  // "relay" (the relay's counters), "tcp_info" (the client socket's TCP_INFO)
  std::function<std::optional<NetworkCounts>()> read;  // called on the sampler's thread
};

struct SamplerOptions {
  std::string out_dir;                  // resources.csv and counters.csv are created there
  double interval_s = kDefaultSampleIntervalS;
  std::string proc_root = "/proc";
  std::string sysfs_drm = "/sys/class/drm";
  std::string powercap = "/sys/class/powercap";
  bool counters = true;                 // perf_event_open counters (counters.csv)
  std::string stack;                    // the stack column of every row (empty: the one session)
};

struct SamplerStats {
  std::uint64_t samples = 0;
  double own_cpu_s = 0;                 // the sampler thread's CPU time (CLOCK_THREAD_CPUTIME_ID)
  std::vector<std::string> notes;       // rows lost to a full disk, …
};

class ResourceSampler {
 public:
  // Creates resources.csv and counters.csv (throws files::WriteError when it cannot).
  explicit ResourceSampler(SamplerOptions options);
  ~ResourceSampler();  // stop()
  ResourceSampler(const ResourceSampler&) = delete;
  ResourceSampler& operator=(const ResourceSampler&) = delete;

  // Thread-safe, before or after start(). A process with descendants=true has its descendants
  // found at each sample and recorded as app-child rows (a child that exits between samples
  // only misses its last interval). Counters are opened now, on the threads it has now, inherited
  // by those it creates later.
  // `stack` names the process's stack in the rows (empty: SamplerOptions::stack), so one sampler
  // can watch several stacks.
  void watch_process(pid_t pid, std::string role, std::string name, bool descendants = false, std::string stack = {});
  // One thread of a process (the relay's thread inside Pictor): its CPU and switches alone.
  void watch_thread(pid_t pid, pid_t tid, std::string role, std::string name, std::string stack = {});
  // The session's client↔proxy bytes, or why there are none ("unavailable: …"), written once.
  void set_network(NetworkSource source);
  void set_network_unavailable(std::string reason);
  // One stack's own client↔proxy bytes beside the session's (several stacks): network rows with
  // the stack's name in the stack column, and its source row once.
  void add_stack_network(std::string stack, NetworkSource source);

  void start();
  // A last sample, then the files are flushed and closed. Idempotent.
  SamplerStats stop();

 private:
  struct Watched;
  void loop();
  void sample(std::int64_t now);
  void machine_rows(std::int64_t now);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pictor::resources
