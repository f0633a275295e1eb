// The local executor: each attempt a child `pictor run` of this machine, one at a time.
#include <map>

#include "campaign/executor.h"
#include "core/clock.h"
#include "runner/process.h"

namespace pictor::campaign {

namespace {

class LocalExecutor final : public Executor {
 public:
  std::size_t slots() const override { return 1; }
  double poll_interval_s() const override { return 0.1; }

  std::string start(const AttemptSpec& a) override {
    runner::SpawnOptions o;
    o.argv = a.argv;
    o.stdout_path = a.log_path;
    o.stderr_path = a.log_path;
    o.name = "pictor run";
    running_.emplace(a.cell, Running{runner::Process::spawn(o), monotonic_ns()});
    return "";
  }

  std::vector<AttemptEnd> poll() override {
    std::vector<AttemptEnd> ended;
    for (auto it = running_.begin(); it != running_.end();) {
      const std::optional<runner::ExitStatus> s = it->second.process.wait_for(0);
      if (!s) {
        ++it;
        continue;
      }
      AttemptEnd e;
      e.cell = it->first;
      e.wall_s = static_cast<double>(monotonic_ns() - it->second.start_ns) * 1e-9;
      if (s->exited) e.exit_status = s->code;
      else e.note = "pictor run " + s->describe();
      ended.push_back(e);
      it = running_.erase(it);
    }
    return ended;
  }

  void cancel_all() override {
    // SIGTERM: pictor run tears its session down and keeps what it recorded (docs/faults.md).
    for (auto& [cell, r] : running_) r.process.stop(10.0);
    running_.clear();
  }

 private:
  struct Running {
    runner::Process process;
    std::int64_t start_ns = 0;
  };
  std::map<int, Running> running_;
};

}  // namespace

std::unique_ptr<Executor> make_local_executor() { return std::make_unique<LocalExecutor>(); }

}  // namespace pictor::campaign
