// `pictor campaign run|status|report|manifests`: benchmark campaigns from a YAML plan, run here one
// session after another or through a Slurm cluster (docs/scale-out.md). The work is in
// src/campaign; this file maps options and prints.
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

#include "campaign/campaign.h"
#include "campaign/campaign_report.h"
#include "campaign/manifests.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/files.h"
#include "runner/machine.h"

namespace pictor::cli {

namespace {

struct CampaignArgs {
  std::string plan;
  std::string dir;
  std::string executor = "local";
  std::string db;
  std::string out;
  bool force = false;
};

}  // namespace

void add_campaign(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CampaignArgs>();
  auto* cmd = app.add_subcommand("campaign", "Benchmark campaigns: a plan of benchmarks × adapters × --net × instances × repeats, "
                                             "run here or through Slurm, every session in the results database");
  cmd->require_subcommand(1);
  cmd->footer("Examples:\n  pictor campaign run plan.yaml --out results/c1\n  pictor campaign run plan.yaml --executor slurm --db "
              "postgresql://pictor@db:5432/pictor --out /shared/c1\n  pictor campaign status /shared/c1\n"
              "  pictor campaign report /shared/c1\n  pictor campaign manifests plan.yaml --db postgresql://pictor@db:5432/pictor\nPlan format: docs/scale-out.md");

  auto* run = cmd->add_subcommand("run", "Expand PLAN into cells and run each as a pictor run session");
  run->add_option("PLAN", args->plan, "the plan (YAML; docs/scale-out.md)")->required();
  run->add_option("--executor", args->executor, "local (one session after another here) or slurm (each cell an sbatch job)")
      ->capture_default_str();
  run->add_option("--db", args->db, "results database: FILE (SQLite) or postgresql://USER@HOST:PORT/DB (default DIR/results.db)");
  run->add_option("-o,--out", args->out, "campaign directory (default pictor-out/campaign-<time>-<name>, numbered if taken)");
  run->add_flag("--force", args->force, "--out holds earlier results: delete them and write there");
  run->callback([args, &ctx] {
    const std::string text = files::read_input_file(args->plan);
    const campaign::Plan plan = campaign::parse_plan(text, args->plan);
    campaign::CampaignOptions o;
    o.executor = args->executor;
    o.db = args->db;
    o.out_dir = args->out;
    o.force = args->force;
    o.quiet = ctx.quiet;
    o.argv = runner::own_command_line();
    const campaign::CampaignResult r = campaign::run_campaign(plan, text, o);
    std::fputs(campaign::format_status(r.cells).c_str(), stdout);
    std::string report_failure;
    try {
      campaign::write_campaign_report(r.dir);
    } catch (const std::exception& e) {
      report_failure = e.what();
    }
    if (!ctx.quiet) {
      std::fprintf(stderr, "pictor: campaign directory %s (cells.csv, attempts.csv, report.html) after %.1f s\n", r.dir.c_str(), r.wall_s);
      if (!report_failure.empty()) std::fprintf(stderr, "pictor: warning: report.html not written: %s\n", report_failure.c_str());
    }
    end_with(ctx, r.exit_code, r.failure);
  });

  auto* status = cmd->add_subcommand("status", "The cells of a campaign directory and their states (cells.csv as a table)");
  status->add_option("DIR", args->dir, "the campaign directory")->required();
  status->callback([args] { std::fputs(campaign::format_status(campaign::load_cells(args->dir)).c_str(), stdout); });

  auto* report = cmd->add_subcommand("report", "Write DIR/report.html: every cell and the comparisons across the plan's axes");
  report->add_option("DIR", args->dir, "the campaign directory")->required();
  report->callback([args, &ctx] {
    const std::string path = campaign::write_campaign_report(args->dir);
    if (!ctx.quiet) std::fprintf(stderr, "pictor: %s\n", path.c_str());
  });


  auto* manifests = cmd->add_subcommand("manifests", "Write one Kubernetes Job manifest per cell of a campaign (DIR/k8s/)");
  manifests->add_option("PLAN", args->plan, "the plan (YAML): its kubernetes: section names the image")->required();
  manifests->add_option("-o,--out", args->out, "where the manifests go (default pictor-out/k8s-<name>)");
  manifests->add_option("--db", args->db, "the results database every Job records into (postgresql://…, shared)");
  manifests->callback([args, &ctx] {
    const std::string text = files::read_input_file(args->plan);
    const campaign::Plan plan = campaign::parse_plan(text, args->plan);
    const campaign::ManifestResult r = campaign::write_manifests(plan, args->out, args->db);
    if (!ctx.quiet) std::fprintf(stderr, "pictor: %zu Job manifests in %s (kubectl apply -f %s)\n", r.files, r.dir.c_str(), r.dir.c_str());
  });
}

}  // namespace pictor::cli
