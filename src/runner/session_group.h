// Several stacks at once (docs/resources.md "Many instances", "Colocated benchmarks"): N
// instances of one benchmark (`pictor run --instances N`) or different benchmarks together
// (`pictor colocate`). Each member is a whole session in OUT/<name>/ with the usual files; the
// group has one sampler (OUT/resources.csv, the stack column naming the member), one deadline,
// one Ctrl-C path, one teardown, and its own OUT/run.json and OUT/summary.json. The same phases
// as one session (runner/session.cpp): plan every member, claim, start the stacks, measure,
// tear down, derive and judge each member, then the group's figures.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "runner/session.h"

namespace pictor::runner {

inline constexpr int kMaxInstances = 32;

struct GroupMember {
  std::string name;     // its directory and stack name: "instance-2", "racing"
  RunOptions options;   // its session (out_dir, quiet and force are the group's)
};

struct GroupOptions {
  std::string kind = "instances";  // run.json `kind`: "instances" or "colocate"
  std::string out_dir;             // empty: default_dir
  std::string default_dir;         // pictor-out/<time>-<name>-nN, numbered if taken
  bool force = false;
  bool quiet = false;
  std::vector<std::string> argv;   // pictor's command line, for run.json
};

struct GroupResult {
  std::string dir;
  std::vector<RunResult> members;  // in the members' order
  nlohmann::json summary;          // OUT/summary.json (runner/group_summary.h)
  int exit_code = 0;               // 0; 1 when a member failed; 128 + N when interrupted by signal N
  std::string status;              // "ok", "failed", "interrupted"
  std::string failure;             // one line: the first member's failure, named
};

// N members of `options`: instance-1 … instance-N, instance K's driver with seed + K - 1
// (instance_driver_spec). Throws UsageError unless 1 <= count <= kMaxInstances.
std::vector<GroupMember> instance_members(const RunOptions& options, int count);

// Runs the members together. Throws UsageError before anything starts for bad options of any
// member (plan_session) or names that are not unique; a failed start of one stack stops every
// stack started and is thrown with each member's run.json kept.
GroupResult run_group(const std::vector<GroupMember>& members, const GroupOptions& options);

// "1,2,3,4" or "3" → counts, each 1..kMaxInstances, ascending or not (run in the order given).
std::vector<int> parse_instance_counts(const std::string& text);

// `pictor run --instances 1,2,3,4`: one group per count in OUT/instances-N/, then OUT/sweep.csv
// and OUT/sweep.json (runner/group_summary.h sweep_row). Stops after an interrupted count.
struct SweepResult {
  std::string dir;
  std::vector<nlohmann::json> rows;
  std::string table;   // format_sweep_table
  int exit_code = 0;
  std::string failure;
};
SweepResult run_sweep(const RunOptions& options, const std::vector<int>& counts, const GroupOptions& group);

}  // namespace pictor::runner
