// Different benchmarks on one server (docs/resources.md "Colocated benchmarks"; `pictor colocate`,
// `pictor suite --colocate pairs`): each member first alone, then together with the others (all
// at once, or every pair), and each member's loss against its solo run — server and client FPS,
// RTT, its stack's CPU, instructions where the machine counts them — in colocate.json and a
// table; for pairs, a matrix of each member's client-FPS loss beside each partner.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "runner/session.h"

namespace pictor::suite {

struct ColocateMember {
  std::string name;            // unique: its directories solo-NAME/ and NAME/ inside a group
  runner::RunOptions options;  // its session (out_dir, quiet, force are colocate's)
};

struct ColocateOptions {
  bool pairs = false;          // every pair (pair-A+B/) instead of all members together (together/)
  std::string out_dir;         // empty: pictor-out/<time>-colocate
  bool force = false;
  bool quiet = false;
  std::vector<std::string> argv;
};

struct ColocateResult {
  std::string dir;
  nlohmann::json report;       // colocate.json
  int exit_code = 0;           // 0; 1 when a run failed (figures kept); 128 + N when interrupted
  std::string failure;
};

// Throws UsageError before anything runs for fewer than two members, a name used twice or bad
// options of any member.
ColocateResult run_colocate(const std::vector<ColocateMember>& members, const ColocateOptions& options);

// A member's loss together against alone: fps_server_loss_pct, fps_client_loss_pct (100 ×
// (solo − together) / solo), rtt_ms_increase, rtt_increase_pct, cpu_pct_change,
// instructions_per_s_loss_pct (null with the reason where the machine counts no instructions).
// `solo` and `together` are rows of runner::member_figures plus the summaries they came from.
nlohmann::json colocate_loss(const nlohmann::json& solo, const nlohmann::json& together,
                             const nlohmann::json& solo_summary, const nlohmann::json& together_summary);

// The table of a colocate.json (and the pair matrix when it has one).
std::string format_colocate(const nlohmann::json& report);

// Unique member names from targets ("builtin:racing:seed=2" → "racing", a second "racing-2").
std::vector<std::string> member_names(const std::vector<std::string>& targets);

}  // namespace pictor::suite
