// A campaign run (docs/scale-out.md): the plan's cells, each one `pictor run` session started by
// an executor (local or Slurm), failures retried up to the plan's `retries`, every attempt
// recorded in the campaign directory and every session in the results database.
#pragma once
#include <string>
#include <vector>

#include "campaign/cells.h"
#include "campaign/plan.h"

namespace pictor::campaign {

struct CampaignOptions {
  std::string executor = "local";      // local | slurm
  std::string db;                      // FILE or postgresql://…; empty: DIR/results.db
  std::string out_dir;                 // empty: pictor-out/campaign-<time>-<name>
  bool force = false;
  bool quiet = false;
  std::string pictor_bin;              // the pictor each cell runs (absolute); empty: this one
  std::vector<std::string> argv;       // pictor's own command line, for campaign.json
};

struct CampaignResult {
  std::string dir;
  std::vector<Cell> cells;
  double wall_s = 0;                   // the whole campaign, first start to last end
  int exit_code = 0;                   // 0 all ok; 1 a cell failed; 128 + N interrupted by signal N
  std::string failure;
};

// The campaign directory's files.
inline constexpr const char* kCampaignJson = "campaign.json";
inline constexpr const char* kCellsCsv = "cells.csv";
inline constexpr const char* kAttemptsCsv = "attempts.csv";
inline constexpr const char* kPlanCopy = "plan.yaml";

// Runs every cell of `plan`. Throws UsageError before anything runs for a bad executor, an --out
// holding earlier results (without force) or a database that cannot be opened.
CampaignResult run_campaign(const Plan& plan, const std::string& plan_text, const CampaignOptions& options);

// The `pictor run` command line of one attempt of a cell.
std::vector<std::string> cell_argv(const Plan& plan, const Cell& cell, const std::string& pictor_bin,
                                   const std::string& session_dir, const std::string& db);

// Reads DIR/cells.csv. Throws UsageError when DIR is not a campaign directory.
std::vector<Cell> load_cells(const std::string& dir);

}  // namespace pictor::campaign
