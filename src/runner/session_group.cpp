#include "runner/session_group.h"

#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <set>

#include "analysis/session_schema.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_util.h"
#include "core/out_dir.h"
#include "core/time_text.h"
#include "runner/group_summary.h"
#include "runner/machine.h"
#include "runner/measure.h"
#include "runner/session_derive.h"
#include "runner/session_plan.h"
#include "runner/stack.h"

namespace pictor::runner {
namespace fs = std::filesystem;

namespace {

nlohmann::json members_json(const std::vector<GroupMember>& members) {
  nlohmann::json out = nlohmann::json::array();
  for (const GroupMember& m : members) out.push_back({{"name", m.name}, {"dir", m.name}});
  return out;
}

}  // namespace

std::vector<GroupMember> instance_members(const RunOptions& options, int count) {
  if (count < 1 || count > kMaxInstances)
    throw UsageError(fmt::format("--instances must be 1..{} (got {})", kMaxInstances, count));
  std::vector<GroupMember> out;
  for (int i = 0; i < count; ++i) {
    GroupMember m{fmt::format("instance-{}", i + 1), options};
    m.options.driver = instance_driver_spec(options.driver, i);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<int> parse_instance_counts(const std::string& text) {
  std::vector<int> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, end - begin);
    int n = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), n);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || n < 1 || n > kMaxInstances)
      throw UsageError(fmt::format("--instances takes a count 1..{} or a list of them (1,2,3,4); got '{}'", kMaxInstances, text));
    out.push_back(n);
    begin = end + 1;
  }
  return out;
}

GroupResult run_group(const std::vector<GroupMember>& members, const GroupOptions& options) {
  // Plan: every member's options checked before anything starts.
  if (members.empty()) throw UsageError("nothing to run together");
  std::set<std::string> names;
  std::vector<SessionPlan> plans;
  bool remote = false;
  for (const GroupMember& m : members) {
    if (!names.insert(m.name).second) throw UsageError("two members are named '" + m.name + "'");
    plans.push_back(plan_session(m.options));
    remote = remote || plans.back().remote;
    // Each local client takes the largest new window on its display: two apps on one display
    // would be told apart by no one.
    if (members.size() > 1 && plans.back().options.adapter == "display")
      throw UsageError("--adapter display runs one app on the display: --instances and colocate need an adapter that "
                       "starts a display per app (local, xvnc, ...)");
  }
  const RunOptions& first = members.front().options;
  const fs::path dir = claim_out_dir(options.out_dir, options.default_dir, options.force);
  std::vector<std::unique_ptr<Stack>> stacks;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const fs::path member_dir = dir / members[i].name;
    fs::create_directories(member_dir);
    locate_libraries(plans[i]);
    stacks.push_back(std::make_unique<Stack>(std::move(plans[i]), member_dir, members[i].name));
    write_run_json(member_dir, stacks.back()->run());
  }
  nlohmann::json run{{"schema", 1},
                     {"kind", options.kind},
                     {"command_line", options.argv.empty() ? own_command_line() : options.argv},
                     {"members", members_json(members)},
                     {"duration_requested_s", first.duration_s},
                     {"machine", machine_info()},
                     {"start_time", iso_utc_now()},
                     {"status", "running"}};
  write_json_file(dir / "run.json", run);
  Progress progress(options.quiet);
  InterruptGuard interrupts;
  std::unique_ptr<SessionResources> resources =
      first.resources ? SessionResources::start_shared(dir.string(), first.sample_interval_s, remote) : nullptr;
  std::vector<Stack*> all;
  for (auto& s : stacks) all.push_back(s.get());
  int interrupted_by = 0;
  try {
    for (Stack* s : all) {
      s->start(progress, [&](Stack& st) {
        if (resources) resources->watch_stack(st.adapter(), st.app_pid(), st.plan().label, st.name(), st.container_processes());
      });
      write_run_json(s->dir(), s->run());
    }
    if (resources) {
      std::vector<SessionResources::StackNetwork> nets;
      for (Stack* s : all) nets.push_back({s->name(), s->relay(), s->client() ? s->client()->remote() : nullptr});
      resources->watch_networks(nets);
    }
    interrupted_by = measure(all, first.duration_s, progress, fmt::format("{} stack{}", all.size(), all.size() == 1 ? "" : "s"));
    if (resources) resources->stop();
    for (Stack* s : all) s->stop();
  } catch (...) {
    for (Stack* s : all) {
      s->abort();
      write_run_json(s->dir(), s->run());
    }
    run["status"] = "failed to start";
    run["end_time"] = iso_utc_now();
    write_json_file(dir / "run.json", run);
    throw;
  }
  // Derive and judge each member, then the group.
  GroupResult out;
  out.dir = dir.string();
  std::vector<GroupMemberFigures> figures;
  for (Stack* s : all) {
    SessionWrites writes(s->dir());
    out.members.push_back(conclude(*s, {resources.get(), true}, writes, progress));
    figures.push_back({s->name(), out.members.back().status, out.members.back().summary, s->run()});
  }
  out.summary = group_summary(figures, resources ? resources->block() : nlohmann::json());
  int failed = 0;
  for (std::size_t i = 0; i < out.members.size(); ++i) {
    const RunResult& r = out.members[i];
    run["members"][i]["status"] = r.status;
    run["members"][i]["exit_code"] = r.exit_code;
    run["members"][i]["failure"] = r.failure.empty() ? nlohmann::json() : nlohmann::json(r.failure);
    if (r.exit_code != 0 && out.failure.empty()) out.failure = members[i].name + ": " + r.failure;
    failed += r.status == "failed" ? 1 : 0;
  }
  out.exit_code = interrupted_by ? 128 + interrupted_by : failed ? 1 : 0;
  out.status = interrupted_by ? "interrupted" : failed ? "failed" : "ok";
  if (interrupted_by)
    out.failure = fmt::format("interrupted by {}; results so far are in {}", signal_name(interrupted_by), dir.string());
  else if (failed > 1)
    out.failure = fmt::format("{} of {} stacks failed, first {}", failed, members.size(), out.failure);
  run["status"] = out.status;
  if (interrupted_by) run["interrupted_by"] = signal_name(interrupted_by);
  if (!out.failure.empty()) run["failure"] = out.failure;
  run["end_time"] = iso_utc_now();
  run["files"] = analysis::session_files_json(dir.string());
  try {
    write_json_file(dir / "summary.json", out.summary);
    write_json_file(dir / "run.json", run);
  } catch (const files::WriteError& e) {
    out.exit_code = out.exit_code ? out.exit_code : 1;
    out.failure = e.what();
  }
  return out;
}

SweepResult run_sweep(const RunOptions& options, const std::vector<int>& counts, const GroupOptions& group) {
  for (const int n : counts) instance_members(options, n);  // every count checked first
  plan_session(options);
  SweepResult out;
  const fs::path dir = claim_out_dir(group.out_dir, group.default_dir, group.force);
  out.dir = dir.string();
  Progress progress(group.quiet);
  for (const int n : counts) {
    GroupOptions g = group;
    g.out_dir = (dir / fmt::format("instances-{}", n)).string();
    g.force = false;
    progress.note(fmt::format("pictor: sweep: {} instance{} for {:g} s", n, n == 1 ? "" : "s", options.duration_s));
    const GroupResult r = run_group(instance_members(options, n), g);
    nlohmann::json row = sweep_row(n, r.summary);
    row["status"] = r.status;
    out.rows.push_back(row);
    if (r.exit_code != 0 && out.failure.empty()) {
      out.exit_code = r.exit_code;
      out.failure = fmt::format("{} instances: {}", n, r.failure);
    }
    if (r.status == "interrupted") break;
  }
  out.table = format_sweep_table(out.rows);
  files::write_file(dir / "sweep.csv", sweep_csv(out.rows));
  write_json_file(dir / "sweep.json", nlohmann::json{{"schema", 1}, {"counts", counts}, {"rows", out.rows}});
  return out;
}

}  // namespace pictor::runner
