// `pictor compare A B`: figures of two sessions, runs or suites side by side with bootstrap
// intervals and verdicts (docs/reports.md); a table, compare.json and compare.html; a CI gate.
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/compare.h"
#include "analysis/compare_input.h"
#include "analysis/session_data.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/out_dir.h"
#include "core/time_text.h"
#include "report/html/report.h"
#include "report/scene_render.h"

namespace pictor::cli {

namespace {

namespace fs = std::filesystem;

struct CompareArgs {
  std::string a, b;
  std::string level = "95%";
  int resamples = 2000;
  std::uint64_t seed = 20240601;
  std::vector<std::string> gates;
  std::string out;
  bool force = false;
  bool json = false;
  std::string db;
};

nlohmann::json unit_json(const analysis::CompareUnit& u) { return {{"name", u.name}, {"sessions", u.sessions}}; }

}  // namespace

void add_compare(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand("compare", "Compare two sessions, runs or suites: B - A and B / A with bootstrap intervals");
  cmd->add_option("A", args->a,
                  "baseline: a session, a --repeat run or a suite directory, a results database id (pictor db list), or "
                  "A1,A2,A3 (repeated runs)")
      ->required();
  cmd->add_option("B", args->b, "the candidate, the same kinds as A")->required();
  cmd->add_option("--level", args->level, "confidence level of the intervals (95%, 0.99, 90)")->capture_default_str();
  cmd->add_option("--resamples", args->resamples, "bootstrap resamples")->capture_default_str()->check(CLI::Range(100, 1000000));
  cmd->add_option("--seed", args->seed, "seed of the resampling (the same inputs and seed give the same intervals)")->capture_default_str();
  cmd->add_option("--fail-if-worse", args->gates,
                  "METRIC=PERCENT: exit 1 when B is significantly worse than A by more than PERCENT of A (repeatable; "
                  "metrics: fps, frame_p50, frame_p99, low1_pct, low1_avg, low01_pct, low01_avg, stutter, rtt_mean, "
                  "rtt_p50, rtt_p99, and stages such as AL, PS, CP, wait_app)");
  cmd->add_option("-o,--out", args->out, "where compare.json and compare.html go (default pictor-out/compare-<time>, numbered if taken)");
  cmd->add_flag("--force", args->force, "--out holds earlier results: delete them and write there");
  cmd->add_flag("--json", args->json, "print compare.json instead of the table");
  cmd->add_option("--db", args->db, "the results database the ids are in (default: as pictor run records)");
  cmd->footer("Examples:\n  pictor compare out/before out/after\n  pictor compare 12 15   (results database ids)\n"
              "  pictor compare 12,13,14 15,16,17\n  pictor compare a1,a2,a3 b1,b2,b3 --fail-if-worse fps=5%\n"
              "  pictor compare suite-old suite-new --level 99%");
  cmd->callback([args, &ctx] {
    analysis::CompareOptions o;
    o.level = analysis::parse_level(args->level);
    o.resamples = args->resamples;
    o.seed = args->seed;
    std::vector<analysis::Gate> gates;
    for (const std::string& g : args->gates) gates.push_back(analysis::parse_gate(g));
    const std::vector<analysis::CompareUnit> a = analysis::resolve_compare_side(resolve_db_side(args->a, args->db));
    const std::vector<analysis::CompareUnit> b = analysis::resolve_compare_side(resolve_db_side(args->b, args->db));
    std::vector<std::string> unpaired;
    const std::vector<analysis::UnitPair> pairs = analysis::pair_units(a, b, unpaired);
    if (pairs.empty()) throw UsageError("A and B have no benchmark in common to compare");
    const fs::path out = claim_out_dir(args->out, (fs::path("pictor-out") / ("compare-" + local_stamp_now())).string(), args->force);

    nlohmann::json doc{{"schema", 1}, {"level", o.level}, {"resamples", o.resamples}, {"seed", o.seed},
                       {"a", {{"spec", args->a}, {"units", nlohmann::json::array()}}},
                       {"b", {{"spec", args->b}, {"units", nlohmann::json::array()}}},
                       {"units", nlohmann::json::array()}, {"unpaired", unpaired}};
    for (const auto& u : a) doc["a"]["units"].push_back(unit_json(u));
    for (const auto& u : b) doc["b"]["units"].push_back(unit_json(u));
    std::string table;
    std::vector<std::string> failures, undecidable;
    nlohmann::json gate_results = nlohmann::json::array();
    std::vector<bool> gate_found(gates.size(), false);
    for (const analysis::UnitPair& p : pairs) {
      const analysis::Comparison c = analysis::compare_unit_pair(p, o);
      doc["units"].push_back({{"name", p.name}, {"a_sessions", p.a.sessions}, {"b_sessions", p.b.sessions},
                              {"comparison", analysis::comparison_json(c)}});
      table += fmt::format("{}A: {}\nB: {}\n", p.name.empty() ? "" : "== " + p.name + " ==\n", fmt::join(p.a.sessions, ","),
                           fmt::join(p.b.sessions, ","));
      table += analysis::format_comparison(c);
      for (std::size_t g = 0; g < gates.size(); ++g) {
        const auto r = analysis::check_gate(gates[g], c);
        if (!r) continue;
        gate_found[g] = true;
        const std::string where = p.name.empty() ? gates[g].metric : p.name + " " + gates[g].metric;
        gate_results.push_back({{"metric", gates[g].metric}, {"threshold", fmt::format("{:g}%", gates[g].threshold * 100)},
                                {"unit", p.name}, {"result", r->text}, {"failed", r->failed}});
        table += fmt::format("  --fail-if-worse {}={:g}%: {}\n", gates[g].metric, gates[g].threshold * 100, r->text);
        if (r->failed) failures.push_back(where + " " + r->text);
        if (r->undecidable) undecidable.push_back(where + " " + r->text);
      }
      table += "\n";
    }
    for (std::size_t g = 0; g < gates.size(); ++g)
      if (!gate_found[g])
        throw UsageError(fmt::format("--fail-if-worse: unknown metric '{}' (fps, frame_p50, frame_p99, low1_pct, low1_avg, "
                                     "low01_pct, low01_avg, stutter, rtt_mean, rtt_p50, rtt_p99, or a stage both sides have)",
                                     gates[g].metric));
    for (const std::string& u : unpaired) table += "  not compared: " + u + "\n";
    doc["fail_if_worse"] = gate_results;
    // Whole or absent (core/files.h): a cut compare.json would be invalid JSON.
    report::write_text_file((out / "compare.json").string(), doc.dump(2) + "\n");
    report::write_text_file((out / "compare.html").string(), report::compare_report_html(doc));
    std::fputs(args->json ? (doc.dump(2) + "\n").c_str() : table.c_str(), stdout);
    if (!ctx.quiet) std::fprintf(stderr, "pictor: compare.json and compare.html in %s\n", out.string().c_str());
    // A gate that cannot be checked must not pass silently.
    if (!undecidable.empty()) throw UsageError("--fail-if-worse cannot be checked: " + fmt::format("{}", fmt::join(undecidable, "; ")));
    if (!failures.empty()) throw RunError("B is significantly worse than A: " + fmt::format("{}", fmt::join(failures, "; ")));
  });
}

}  // namespace pictor::cli
