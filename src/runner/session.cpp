// One session, in phases (docs/architecture.md "The runner in phases"): plan, claim the
// directory, start the stack, measure, tear down, derive, verdict.
#include "runner/session.h"

#include <filesystem>

#include "core/out_dir.h"
#include "runner/measure.h"
#include "runner/metrics_server.h"
#include "runner/remote_run.h"
#include "runner/session_derive.h"
#include "runner/session_plan.h"
#include "runner/stack.h"

namespace pictor::runner {
namespace fs = std::filesystem;

RunResult run_session(const RunOptions& options) {
  if (!options.server.empty()) return run_two_host_session(options);
  SessionPlan plan = plan_session(options);
  // Live metrics: bound before anything starts, so a bad or taken address is a usage error.
  const std::unique_ptr<MetricsServer> live_metrics =
      options.metrics_listen.empty() ? nullptr : std::make_unique<MetricsServer>(parse_listen_address(options.metrics_listen));
  // Never into an earlier session's directory (its files would mix with this one's) unless --force.
  const fs::path dir = claim_out_dir(options.out_dir, default_session_dir(fs::path(plan.label).filename().string()), options.force);
  locate_libraries(plan);
  Stack stack(std::move(plan), dir, "");
  write_run_json(dir, stack.run());
  SessionWrites writes(dir);
  if (live_metrics) live_metrics->serve(dir.string(), stack.plan().label);
  Progress progress(options.quiet);
  InterruptGuard interrupts;
  std::unique_ptr<SessionResources> resources;  // the resource sampler (docs/resources.md)
  try {
    stack.start(progress, [&](Stack& s) {
      if (options.resources)
        resources = SessionResources::start(dir.string(), options.sample_interval_s, s.adapter(), s.app_pid(), s.plan().label,
                                              s.container_processes());
    });
    write_run_json(dir, stack.run());
    if (resources) resources->watch_network(stack.relay(), stack.client() ? stack.client()->remote() : nullptr);
    measure({&stack}, options.duration_s, progress, stack.plan().label);
    if (resources) resources->stop();
    stack.stop();
  } catch (...) {
    stack.abort();
    write_run_json(dir, stack.run());
    throw;
  }
  return conclude(stack, {resources.get(), false}, writes, progress);
}

}  // namespace pictor::runner
