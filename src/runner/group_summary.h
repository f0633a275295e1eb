// The figures of several stacks measured together (`--instances N`, `pictor colocate`): each
// member's server and client FPS, frame time, RTT with its stages, inputs matched and the CPU and
// memory of its stack, then the aggregate — every figure from the members' summary.json, an
// unknown one null (docs/resources.md "Many instances").
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pictor::runner {

struct GroupMemberFigures {
  std::string name;        // "instance-1", or the benchmark's name when colocated
  std::string status;      // the member session's run.json status
  nlohmann::json summary;  // its summary.json (null when none was written)
  nlohmann::json run;      // its run.json (net bytes, measured duration)
};

// One member's row: fps_server, fps_client, frame_ms_p50, frame_ms_p99, rtt_ms_mean, rtt_ms_p99,
// stages_ms (mean per stage), inputs_matched_pct, cpu_pct (its stack's processes, % of one core),
// rss_mb (their peaks added), net_mbit_s_down.
nlohmann::json member_figures(const GroupMemberFigures& m);

// summary.json of the group: {"members": [...rows], "aggregate": {...}, "resources": block}.
// The aggregate: members, fps_server_sum, fps_server_mean, fps_client_mean, frame_ms_p99_max,
// rtt_ms_mean (of the members' means), rtt_ms_p99_max, stages_ms (mean of means), cpu_pct_sum
// (the stacks), client_cpu_pct (Pictor's own process, which drives them all), cpu_pct_per_member,
// rss_mb_sum.
nlohmann::json group_summary(const std::vector<GroupMemberFigures>& members, const nlohmann::json& resources);

// The terminal table of a group summary.json.
std::string format_group_table(const nlohmann::json& summary);

// The sweep table (`--instances 1,2,3,4`): one row per count from each count's group summary —
// count, per-instance server FPS, client FPS, RTT mean, RTT p99, frame-time p99, CPU per
// instance, RSS per instance, machine CPU busy. As CSV (header row first) and as text.
nlohmann::json sweep_row(int count, const nlohmann::json& group);
std::string sweep_csv(const std::vector<nlohmann::json>& rows);
std::string format_sweep_table(const std::vector<nlohmann::json>& rows);

}  // namespace pictor::runner
