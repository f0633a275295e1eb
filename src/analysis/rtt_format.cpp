// format_rtt_summary: the terminal table of the RTT part of summary.json (`pictor analyze`, the
// end of `pictor run`): the RTT, then each column of its partition in path order with its share,
// then the stages that overlap them (RD, FC).
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "analysis/rtt.h"
#include "core/text.h"

namespace pictor::analysis {

namespace {

// A figure in at most `width` characters (the table's 8-wide columns; 7 for each end of a CI),
// so that huge values keep the columns apart.
std::string num(const nlohmann::json& v, int width = 8) {
  return v.is_number() ? fit_number(v.get<double>(), width, 2) : "-";
}

std::string percent(const nlohmann::json& v) {
  return v.is_number() ? fmt::format("{:.1f}%", 100.0 * v.get<double>()) : "-";
}

// The table's name of a column: what the AS row measures on this renderer, and short names for
// the wait columns.
std::string row_name(const std::string& key, const nlohmann::json& d) {
  if (key == "AS_ms") return d.value("label", "AS") == "RD+AS" ? "RD+AS swap" : "AS swap";
  if (key == "RD_ms") return "RD timer*";
  if (key == "FC_ms") return "FC*";
  if (key == "wait_later_frame_ms") return "wait later";
  if (key == "unattributed_ms") return "unattributed";
  std::string name = key.substr(0, key.size() - 3);  // without "_ms"
  for (char& c : name)
    if (c == '_') c = ' ';
  return name;
}

}  // namespace

std::string format_rtt_summary(const nlohmann::json& summary) {
  if (!summary.is_object() || !summary.contains("rtt_ms")) return {};
  std::string out;
  if (summary.contains("inputs")) {
    const auto& in = summary["inputs"];
    out += fmt::format("Inputs              {} sent, {} matched to the frame that answers them\n", in.value("sent", 0),
                       in.value("matched", 0));
  }
  out += fmt::format("{:<14} {:>6} {:>8} {:>17} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "Latency (ms)", "n", "mean",
                     "95% CI of mean", "min", "p50", "p99", "max", "of RTT");
  auto row = [&](const std::string& name, const nlohmann::json& d) {
    if (!d.is_object()) return;
    std::string ci = "-";
    if (d.contains("ci95") && d["ci95"].is_array() && d["ci95"].size() == 2)
      ci = num(d["ci95"][0], 7) + ".." + num(d["ci95"][1], 7);
    out += fmt::format("  {:<12} {:>6} {:>8} {:>17} {:>8} {:>8} {:>8} {:>8} {:>8}\n", name, d.value("n", 0),
                       num(d["mean"]), ci, num(d["min"]), num(d["p50"]), num(d["p99"]), num(d["max"]),
                       d.contains("rtt_share") ? percent(d["rtt_share"]) : "");
  };
  row("RTT", summary["rtt_ms"]);
  const nlohmann::json stages = summary.value("stages_ms", nlohmann::json::object());
  const nlohmann::json part = summary.value("rtt_partition", nlohmann::json::object());
  std::vector<std::string> keys;
  if (part.contains("columns") && part["columns"].is_array()) {
    for (const auto& c : part["columns"]) keys.push_back(c.get<std::string>());
  } else {  // a summary.json written before the stages partitioned the RTT
    keys = {"CS_ms", "SP_ms", "PS_ms", "AL_ms", "AS_ms", "CP_ms", "SS_ms"};
  }
  keys.push_back("RD_ms");
  keys.push_back("FC_ms");
  for (const std::string& key : keys)
    if (stages.is_object() && stages.contains(key)) row(row_name(key, stages[key]), stages[key]);
  if (part.contains("unattributed_share") && part["unattributed_share"].is_object()) {
    const auto& u = part["unattributed_share"];
    out += fmt::format("Unattributed        {} of the RTT on average, {} at most (one input); {} of {} matched "
                       "inputs have every stage\n",
                       percent(u["mean"]), percent(u["max"]), part.value("complete", 0), part.value("matched", 0));
  }
  std::string footnote = "* not in the sum: RD overlaps AL and AS";
  if (summary.contains("clock_offset") && summary["clock_offset"].is_object()) {
    // Two hosts: the stages that cross them carry the clock offset's error (docs/two-hosts.md).
    const auto& c = summary["clock_offset"];
    std::string names;
    for (const auto& n : c.value("cross_host_stages", nlohmann::json::array()))
      names += (names.empty() ? "" : ", ") + n.get<std::string>().substr(0, n.get<std::string>().size() - 3);
    const auto ms3 = [](const nlohmann::json& v) { return v.is_number() ? fmt::format("{:.3f}", v.get<double>()) : "unknown"; };
    out += fmt::format("Two hosts           clock offset {} ms ± {} ms; {} cross the hosts: each ± {} ms\n",
                       ms3(c["offset_ms"]), ms3(c["uncertainty_ms"]), names.empty() ? "no stage" : names,
                       ms3(c["uncertainty_ms"]));
  }
  const bool vulkan = part.contains("api") && part["api"] == "Vulkan";
  // No RD timer row with a count: the hook took no timer queries (its default on a software
  // renderer, docs/environment.md PICTOR_GPU_TIMING).
  const bool rd_timed = stages.is_object() && stages.contains("RD_ms") && stages["RD_ms"].is_object() &&
                        stages["RD_ms"].value("n", 0) > 0;
  if (part.value("software_renderer", false))
    footnote += "; on " + part.value("gl_renderer", std::string("this software renderer")) +
                (vulkan    ? " the present call waits for the rasterisation (RD+AS)"
                 : rd_timed ? " the swap call rasterises (RD+AS) and the timer queries miss the raster threads"
                            : " the swap call rasterises (RD+AS); its timer queries would miss the raster "
                              "threads, so none are taken (PICTOR_GPU_TIMING=1 takes them)");
  out += footnote + "\n";
  if (summary.contains("fps_client") && summary["fps_client"].is_number())
    out += "Client FPS          " + num(summary["fps_client"]) + "\n";
  if (summary.contains("fps_client_updates") && summary["fps_client_updates"].is_number())
    out += "Client updates/s    " + num(summary["fps_client_updates"]) + "\n";
  return out;
}

}  // namespace pictor::analysis
