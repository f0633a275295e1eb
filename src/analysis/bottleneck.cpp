// The bottleneck verdict: rules over the RTT partition, the frames' swap-call split, the proxy's
// update cap and per-process CPU (docs/reports.md "The bottleneck verdict").
#include "analysis/bottleneck.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "analysis/rtt.h"
#include "analysis/rtt_partition.h"
#include "analysis/session_data.h"
#include "analysis/stats.h"

namespace pictor::analysis {

namespace {

namespace fs = std::filesystem;

std::string pct(double share) { return fmt::format("{:.0f} %", share * 100); }

// A group of partition columns that one verdict stands for.
struct Group {
  std::string verdict;  // "raster-bound"; "" for the waits, which point to what bounds the frames
  std::string label;    // "RD+AS", "CP+SP+wait_proxy"
  std::vector<std::string> columns;
  double share = 0;
  bool known = false;   // at least one of its columns was measured
};

std::vector<Group> rtt_groups(const BottleneckEvidence& e) {
  std::vector<Group> g;
  g.push_back({"app-logic-bound", "AL", {"AL_ms"}});
  if (!e.frame_copy.empty()) {
    // Offloaded: the swap call (AS) holds the copy out of the render device and the put into X;
    // FC is timed inside it and not counted again.
    g.push_back({"frame-copy-bound", "AS (copy+put)", {"AS_ms"}});
  } else if (e.software_renderer) {
    g.push_back({"raster-bound", "RD+AS", {"AS_ms"}});
    g.push_back({"frame-copy-bound", "FC", {"FC_ms"}});
  } else {
    g.push_back({"frame-copy-bound", "AS+FC", {"AS_ms", "FC_ms"}});
  }
  g.push_back({"proxy-bound", "SP+wait_proxy+CP", {"SP_ms", "wait_proxy_ms", "CP_ms"}});
  if (e.remote) g.push_back({"network-bound", "CS+SS", {"CS_ms", "SS_ms"}});
  else g.push_back({"client-bound", "SS", {"SS_ms"}});
  g.push_back({"input-delivery-bound", "PS", {"PS_ms"}});
  g.push_back({"", "wait_app+wait_later_frame", {"wait_app_ms", "wait_later_frame_ms"}});
  for (Group& x : g)
    for (const std::string& c : x.columns)
      if (const auto it = e.rtt_share.find(c); it != e.rtt_share.end() && std::isfinite(it->second)) {
        x.share += it->second;
        x.known = true;
      }
  std::erase_if(g, [](const Group& x) { return !x.known; });
  std::stable_sort(g.begin(), g.end(), [](const Group& a, const Group& b) { return a.share > b.share; });
  return g;
}

// The CPU of the component a verdict is about: "app" for the app's logic, names with "vnc" or
// "proxy" for the proxy (docs/reports.md). NaN when not sampled or no such component.
double component_cpu(const BottleneckEvidence& e, bool proxy) {
  double best = kUnknown;
  for (const auto& [name, cpu] : e.cpu_pct) {
    const bool is_proxy = name.find("vnc") != std::string::npos || name.find("proxy") != std::string::npos;
    const bool is_app = name == "app" || name.starts_with("app:") || name.starts_with("app ");
    if ((proxy ? is_proxy : is_app) && std::isfinite(cpu)) best = std::isfinite(best) ? std::max(best, cpu) : cpu;
  }
  return best;
}

// Confirms or qualifies a verdict with the CPU of the process it names.
void cpu_evidence(const BottleneckEvidence& e, bool proxy, std::string& text, std::vector<std::string>& evidence,
                  std::vector<std::string>& missing) {
  const char* who = proxy ? "proxy" : "app";
  if (!e.resources_sampled) {
    missing.push_back(fmt::format("per-process CPU is not sampled ({}): it would say whether the {} is busy (at a core) "
                                  "or waiting",
                                  e.resources_problem.empty() ? "no resources.csv" : e.resources_problem, who));
    return;
  }
  const double cpu = component_cpu(e, proxy);
  if (!std::isfinite(cpu)) {
    missing.push_back(fmt::format("resources.csv has no CPU figure for the {}", who));
    return;
  }
  text += fmt::format("; {} at {:.0f} % of a core", who, cpu);
  evidence.push_back(fmt::format("{} CPU {:.0f} % of a core (mean over the session, resources.csv){}", who, cpu,
                                 cpu >= kBusyCorePct ? ": busy" : ": not saturated"));
}

struct Part {
  std::string verdict, text;
};

// A frame mostly spent outside the part Pictor times (`text` says which part): app logic when the
// app's process is busy at a core, a wait (frame limiter, X server) when it is not, undetermined
// without per-process CPU.
Part outside_verdict(const BottleneckEvidence& e, const std::string& text, std::vector<std::string>& missing) {
  if (e.resources_sampled) {
    const double cpu = component_cpu(e, false);
    if (std::isfinite(cpu) && cpu >= kBusyCorePct)
      return {"app-logic-bound", text + fmt::format("; app at {:.0f} % of a core", cpu)};
    if (std::isfinite(cpu))
      return {"undetermined", text + fmt::format(" while the app uses {:.0f} % of a core: it waits (a frame limiter, "
                                                 "or for the X server)", cpu)};
  }
  missing.push_back("per-process CPU (resources.csv) would tell app logic (a busy core) from a frame limiter's sleep");
  return {"undetermined", text};
}

// Offloaded frames (docs/offload.md): the swap call holds the copy out of the render device (FC)
// and the put into the X server (AS), not the rasterisation a native llvmpipe swap does, so a
// frame splits into the copy and the rest, from the per-frame FC and AS.
Part offload_frames_verdict(const BottleneckEvidence& e, std::vector<std::string>& evidence,
                            std::vector<std::string>& missing) {
  if (!std::isfinite(e.fc_ms_mean) || !std::isfinite(e.as_ms_mean)) {
    missing.push_back("the offloaded frames' copy times (frames.csv fc_ms, as_ms; summary.json fc_ms, as_ms) would "
                      "split each frame into the copy and the rest");
    return {"undetermined", "the offloaded frames' copy is not timed"};
  }
  const double fc = std::clamp(e.fc_ms_mean / e.frame_ms_mean, 0.0, 1.0);
  const double as = std::clamp(e.as_ms_mean / e.frame_ms_mean, 0.0, 1.0);
  const double copy = std::min(1.0, fc + as);
  evidence.push_back(fmt::format("offloaded frames (--frame-copy {}): {:.2f} ms mean, FC {:.2f} ms ({}), AS {:.2f} ms "
                                 "({}), {} outside the copy and put",
                                 e.frame_copy, e.frame_ms_mean, e.fc_ms_mean, pct(fc), e.as_ms_mean, pct(as), pct(1 - copy)));
  const bool gpu_busy = std::isfinite(e.gpu_ms_mean) && e.gpu_ms_mean >= kFrameDominantShare * e.frame_ms_mean;
  if (copy >= kFrameDominantShare) {
    if (e.software_renderer) {
      // A software device rasterises when the copy reads the frame: FC holds RD.
      if (std::isfinite(e.gpu_ms_mean) && e.gpu_ms_mean >= kFrameDominantShare * e.fc_ms_mean)
        return {"raster-bound", fmt::format("the copy is {} of each frame, and {:.2f} ms of its {:.2f} ms FC is the "
                                            "renderer's (GPU timer): the read waits for rasterisation",
                                            pct(copy), e.gpu_ms_mean, e.fc_ms_mean)};
      missing.push_back("on a software device the copy's read waits for the rasteriser, so FC holds RD: the GPU timer "
                        "(PICTOR_GPU_TIMING=1) or a hardware device would split them");
      return {"frame-copy-bound", fmt::format("the frame copy (FC {}, on a software device with the wait for "
                                              "rasterisation) and the put into X (AS {}) are {} of each frame",
                                              pct(fc), pct(as), pct(copy))};
    }
    if (gpu_busy)
      return {"raster-bound", fmt::format("GPU time {:.2f} ms of a {:.2f} ms frame", e.gpu_ms_mean, e.frame_ms_mean)};
    return {"frame-copy-bound", fmt::format("the frame copy (FC {}) and the put into X (AS {}) are {} of each frame",
                                            pct(fc), pct(as), pct(copy))};
  }
  if (1 - copy >= kFrameDominantShare) {
    if (gpu_busy)
      return {"raster-bound", fmt::format("GPU time {:.2f} ms of a {:.2f} ms frame", e.gpu_ms_mean, e.frame_ms_mean)};
    return outside_verdict(e, fmt::format("{} of each frame is outside the frame copy and put (logic, GL submission)",
                                          pct(1 - copy)), missing);
  }
  return {"mixed", fmt::format("FC+AS {} of each frame, {} outside", pct(copy), pct(1 - copy))};
}

// What bounds the frame rate: the split of each frame at the swap call.
Part frames_verdict(const BottleneckEvidence& e, std::vector<std::string>& evidence, std::vector<std::string>& missing) {
  if (!std::isfinite(e.frame_ms_mean) || e.frame_ms_mean <= 0)
    return {"undetermined", "no frame times"};
  if (!e.frame_copy.empty()) return offload_frames_verdict(e, evidence, missing);
  if (!std::isfinite(e.swap_call_ms_mean)) {
    missing.push_back("frames.csv has no swap_call_ms: the split of a frame at the swap call would decide");
    return {"undetermined", "the frames' swap calls are not timed"};
  }
  const double inside = std::clamp(e.swap_call_ms_mean / e.frame_ms_mean, 0.0, 1.0);
  evidence.push_back(fmt::format("frames: {:.2f} ms mean, {} inside the swap call{}, {} outside it", e.frame_ms_mean,
                                 pct(inside), e.software_renderer ? " (where the software renderer rasterises)" : "",
                                 pct(1 - inside)));
  if (inside >= kFrameDominantShare) {
    if (e.software_renderer) return {"raster-bound", fmt::format("the swap call, where llvmpipe rasterises, is {} of each frame", pct(inside))};
    if (std::isfinite(e.gpu_ms_mean) && e.gpu_ms_mean >= kFrameDominantShare * e.frame_ms_mean)
      return {"raster-bound", fmt::format("GPU time {:.2f} ms of a {:.2f} ms frame", e.gpu_ms_mean, e.frame_ms_mean)};
    missing.push_back("the swap call waits (for vsync, or the driver's queue) and the GPU timer does not show the "
                      "GPU busy: GPU utilisation (resources.csv) would decide");
    return {"undetermined", fmt::format("{} of each frame waits in the swap call", pct(inside))};
  }
  if (1 - inside >= kFrameDominantShare)
    return outside_verdict(e, fmt::format("{} of each frame is outside the swap call (logic, GL submission)", pct(1 - inside)),
                           missing);
  return {"mixed", fmt::format("{} of each frame inside the swap call, {} outside", pct(inside), pct(1 - inside))};
}

}  // namespace

nlohmann::json judge_bottleneck(const BottleneckEvidence& e) {
  std::vector<std::string> evidence, missing;
  nlohmann::json out;
  const Part frames = frames_verdict(e, evidence, missing);
  out["frames"] = {{"verdict", frames.verdict}, {"text", frames.text}};

  // The proxy's cap bounds what the client sees, whatever the app does.
  const bool capped = e.remote && std::isfinite(e.frame_rate_cap) && std::isfinite(e.fps_client_updates) &&
                      e.fps_client_updates >= kCapReached * e.frame_rate_cap;
  if (std::isfinite(e.frame_rate_cap) && std::isfinite(e.fps_client_updates))
    evidence.push_back(fmt::format("client updates {:.0f}/s against the proxy's cap of {:g}/s", e.fps_client_updates,
                                   e.frame_rate_cap));

  Part rtt{"undetermined", ""};
  nlohmann::json shares = nlohmann::json::object();
  if (e.matched < kBottleneckMinInputs) {
    rtt.text = e.matched == 0 ? "no input matched to a frame" : fmt::format("only {} inputs matched", e.matched);
    missing.push_back(fmt::format("the RTT stages of at least {} matched inputs (pictor run --driver …) would show "
                                  "where a user's input waits", kBottleneckMinInputs));
  } else {
    const std::vector<Group> groups = rtt_groups(e);
    for (const Group& g : groups) shares[g.label] = g.share;
    const double unattributed = e.rtt_share.contains("unattributed_ms") ? e.rtt_share.at("unattributed_ms") : 0.0;
    if (unattributed > 0) shares["unattributed"] = unattributed;
    if (std::isfinite(e.rtt_mean_ms))
      evidence.push_back(fmt::format("RTT {:.1f} ms mean over {} matched inputs", e.rtt_mean_ms, e.matched));
    for (const Group& g : groups)
      if (g.share >= 0.05) evidence.push_back(fmt::format("{} {} of the RTT", g.label, pct(g.share)));
    if (const auto fc = e.rtt_share.find("FC_ms"); !e.frame_copy.empty() && fc != e.rtt_share.end() && std::isfinite(fc->second))
      evidence.push_back(fmt::format("FC (the response frames' copy, inside AS) {} of the RTT", pct(fc->second)));
    if (unattributed >= kUndecidedUnattributed) {
      rtt.text = fmt::format("{} of the RTT lies between timestamps Pictor does not have (unattributed)", pct(unattributed));
      missing.push_back("the stage timestamps that are missing (summary.json rtt_notes say which) would decide");
    } else if (groups.empty()) {
      rtt.text = "no stage of the RTT was measured";
    } else {
      const Group& top = groups[0];
      const double next = groups.size() > 1 ? groups[1].share : 0.0;
      const bool decides = top.share >= kDominantShare && top.share >= kDominantLead * next;
      if (!decides) {
        rtt.verdict = "mixed";
        rtt.text = fmt::format("{} {} of RTT, {} {}", top.label, pct(top.share), groups.size() > 1 ? groups[1].label : "",
                               pct(next));
      } else if (top.verdict.empty()) {
        // Inputs wait for the app's frames: what bounds the frames bounds the latency.
        rtt.verdict = frames.verdict;
        rtt.text = fmt::format("inputs wait {} of the RTT for the app's frames; {}", pct(top.share), frames.text);
      } else {
        rtt.verdict = top.verdict;
        rtt.text = fmt::format("{} {} of RTT", top.label, pct(top.share));
        if (top.verdict == "app-logic-bound") cpu_evidence(e, false, rtt.text, evidence, missing);
        if (top.verdict == "proxy-bound") cpu_evidence(e, true, rtt.text, evidence, missing);
        if (top.verdict == "network-bound" && !e.net.empty()) rtt.text += "; network emulated: " + e.net;
      }
    }
  }
  out["rtt"] = {{"verdict", rtt.verdict}, {"text", rtt.text}, {"shares", shares}};

  Part overall;
  if (capped) {
    overall = {"capped by the proxy's update rate",
               fmt::format("client updates {:.0f}/s at the proxy's cap of {:g}/s (--vnc-frame-rate raises it)",
                           e.fps_client_updates, e.frame_rate_cap)};
  } else if (e.matched >= kBottleneckMinInputs && rtt.verdict != "undetermined") {
    overall = rtt;
    if (rtt.verdict != "mixed" && frames.verdict != rtt.verdict && frames.verdict != "undetermined" &&
        rtt.text.find(frames.text) == std::string::npos)
      overall.text += "; frames: " + frames.verdict + " (" + frames.text + ")";
  } else {
    overall = frames;
    if (!rtt.text.empty()) overall.text += "; RTT: " + rtt.text;
  }
  out["verdict"] = overall.verdict;
  out["text"] = overall.verdict + " (" + overall.text + ")";
  out["evidence"] = evidence;
  out["missing"] = missing;
  out["resources_sampled"] = e.resources_sampled;
  return out;
}

BottleneckEvidence bottleneck_evidence(const nlohmann::json& summary, const nlohmann::json& run,
                                       const std::string& session_dir) {
  BottleneckEvidence e;
  e.rtt_mean_ms = json_number(summary, {"rtt_ms", "mean"});
  const double n = json_number(summary, {"rtt_ms", "n"});
  e.matched = std::isfinite(n) ? static_cast<std::size_t>(n) : 0;
  const nlohmann::json& stages = json_at(summary, {"stages_ms"});
  if (stages.is_object()) {
    for (auto it = stages.begin(); it != stages.end(); ++it) {
      const nlohmann::json& s = it.value();
      if (json_at(s, {"in_rtt_sum"}) == true) {
        e.rtt_share[it.key()] = json_number(s, {"rtt_share"});
      } else if (std::isfinite(e.rtt_mean_ms) && e.rtt_mean_ms > 0 && std::isfinite(json_number(s, {"mean"}))) {
        e.rtt_share[it.key()] = json_number(s, {"mean"}) / e.rtt_mean_ms;
      }
    }
  }
  e.adapter = json_at(run, {"adapter"}).is_string() ? json_at(run, {"adapter"}).get<std::string>() : "local";
  e.remote = e.adapter == "xvnc" || e.adapter == "x11vnc";
  if (const auto& net = json_at(run, {"net", "spec"}); net.is_string()) e.net = net.get<std::string>();
  e.frame_rate_cap = json_number(run, {"proxy", "frame_rate_cap"});
  e.fps_server = json_number(summary, {"fps_avg"});
  e.fps_client = json_number(summary, {"fps_client"});
  e.fps_client_updates = json_number(summary, {"fps_client_updates"});
  e.gpu_ms_mean = json_number(summary, {"gpu_ms", "mean"});
  // Offloaded (run.json render, or the summary's copy of it): the copy's strategy and FC, AS.
  for (const nlohmann::json* where : {&run, &summary})
    if (const nlohmann::json& r = json_at(*where, {"render"}); e.frame_copy.empty() && r.is_object() &&
                                                               r.value("mode", "") == "offload")
      e.frame_copy = r.value("frame_copy", std::string("vgl"));
  e.fc_ms_mean = json_number(summary, {"fc_ms", "mean"});
  e.as_ms_mean = json_number(summary, {"as_ms", "mean"});
  e.frame_ms_mean = json_number(summary, {"frame_ms", "mean"});
  std::string renderer;
  if (const auto& r = json_at(summary, {"rtt_partition", "gl_renderer"}); r.is_string()) renderer = r.get<std::string>();
  if (const auto& r = json_at(run, {"gl", "gl_renderer"}); renderer.empty() && r.is_string()) renderer = r.get<std::string>();
  try {
    // The swap call of every frame the figures describe (play, for a profile session).
    const RttTimeline t = load_rtt_timeline(session_dir, false);
    if (renderer.empty()) renderer = t.gl_renderer;
    const double play = json_number(summary, {"play_start_ns"});
    std::vector<double> swap;
    for (const AppFrame& f : t.frames)
      if (!std::isfinite(play) || static_cast<double>(f.swap_ns) >= play) swap.push_back(f.swap_call_ms);
    const std::vector<double> known = stats::known(swap);
    if (!known.empty() && known.size() * 2 >= swap.size()) e.swap_call_ms_mean = stats::mean(known);
  } catch (const std::exception&) {
    // Unknown stays unknown: the verdict then says which measurement is missing.
  }
  e.software_renderer = is_software_renderer(renderer);
  // The sampler's own per-role means, when summary.json has them (docs/resources.md).
  if (const nlohmann::json& procs = json_at(summary, {"resources", "processes"}); procs.is_object()) {
    for (auto it = procs.begin(); it != procs.end(); ++it) {
      const double cpu = json_number(it.value(), {"cpu_mean_pct"});
      if (!std::isfinite(cpu)) continue;
      const std::string& key = it.key();  // "role", or "STACK/role" with several stacks
      e.cpu_pct[key.substr(key.rfind('/') == std::string::npos ? 0 : key.rfind('/') + 1)] = cpu;
    }
    if (!e.cpu_pct.empty()) {
      e.resources_sampled = true;
      return e;
    }
  }
  if (fs::exists(fs::path(session_dir) / "resources.csv")) {
    const ResourceSamples r = read_resources_csv((fs::path(session_dir) / "resources.csv").string());
    if (!r.problem.empty()) e.resources_problem = "resources.csv: " + r.problem;
    if (r.problem.empty()) {
      e.resources_sampled = true;
      std::map<std::string, std::pair<double, std::size_t>> sums;
      for (std::size_t i = 0; i < r.component.size(); ++i)
        if (std::isfinite(r.cpu_pct[i])) {
          sums[r.component[i]].first += r.cpu_pct[i];
          sums[r.component[i]].second += 1;
        }
      for (const auto& [name, s] : sums) e.cpu_pct[name] = s.first / static_cast<double>(s.second);
    }
  }
  return e;
}

std::string format_bottleneck(const nlohmann::json& summary) {
  const nlohmann::json& b = json_at(summary, {"bottleneck"});
  if (!b.is_object()) return {};
  std::string out = "Bottleneck: " + b.value("text", std::string("?")) + "\n";
  for (const auto& m : json_at(b, {"missing"})) out += "  to decide: " + m.get<std::string>() + "\n";
  return out;
}

}  // namespace pictor::analysis
