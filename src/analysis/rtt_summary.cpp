// summary.json's input-latency part: RTT and stage distributions with bootstrap CIs, input counts,
// client FPS and what the client saw of the app's frames.
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "analysis/rtt.h"
#include "analysis/stats.h"

namespace pictor::analysis {

namespace {

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

// Uniform 0..n-1 by rejection, so the resampling is the same with every standard library.
std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = rng.max() - rng.max() % n;
  std::uint64_t x = 0;
  do {
    x = rng();
  } while (x >= limit);
  return x % n;
}

}  // namespace

Interval bootstrap_mean_ci95(std::span<const double> values, std::uint64_t seed, int resamples) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (values.size() < 2 || resamples < 1) return {nan, nan};
  std::mt19937_64 rng(seed);
  std::vector<double> means(static_cast<std::size_t>(resamples));
  std::vector<double> sample(values.size());
  for (double& mean : means) {
    for (double& x : sample) x = values[draw_below(rng, values.size())];
    mean = stats::mean(sample);
  }
  std::sort(means.begin(), means.end());
  return {stats::percentile_sorted(means, 2.5), stats::percentile_sorted(means, 97.5)};
}

nlohmann::json distribution_json(std::span<const double> values, std::uint64_t seed) {
  const std::vector<double> known = stats::known(values);
  nlohmann::json j;
  j["n"] = known.size();
  const std::vector<double> sorted = stats::sorted(known);
  j["mean"] = number_or_null(stats::mean(sorted));
  const Interval ci = bootstrap_mean_ci95(known, seed);
  j["ci95"] = std::isfinite(ci.lo) ? nlohmann::json::array({ci.lo, ci.hi}) : nlohmann::json();
  j["min"] = number_or_null(sorted.empty() ? NAN : sorted.front());
  for (const auto& [name, p] : {std::pair{"p1", 1.0}, {"p25", 25.0}, {"p50", 50.0}, {"p75", 75.0},
                                {"p99", 99.0}}) {
    j[name] = number_or_null(stats::percentile_sorted(sorted, p));
  }
  j["max"] = number_or_null(sorted.empty() ? NAN : sorted.back());
  return j;
}

nlohmann::json rtt_summary(const RttTimeline& t, std::span<const MatchedInput> inputs,
                           std::vector<std::string> notes) {
  nlohmann::json out;
  std::vector<double> rtt, ps, al, rd, as, cs, sp, cp, ss, fc;
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const MatchedInput& m : inputs) {
    ++counts[static_cast<int>(m.status)];
    rtt.push_back(m.rtt_ms);
    ps.push_back(m.ps_ms);
    al.push_back(m.al_ms);
    rd.push_back(m.rd_ms);
    as.push_back(m.as_ms);
    cs.push_back(m.cs_ms);
    sp.push_back(m.sp_ms);
    cp.push_back(m.cp_ms);
    ss.push_back(m.ss_ms);
    fc.push_back(m.fc_ms);
  }
  out["rtt_ms"] = distribution_json(rtt);
  nlohmann::json stages;
  stages["PS_ms"] = distribution_json(ps);
  stages["AL_ms"] = distribution_json(al);
  stages["RD_ms"] = distribution_json(rd);
  // Not a CPU interval like the others: the GPU's own time for the response frame.
  stages["RD_ms"]["source"] = "GL timer query (GPU time of the response frame)";
  stages["AS_ms"] = distribution_json(as);
  const bool remote = t.have_updates || t.have_proxy;
  if (remote) stages["AS_ms"]["source"] = "the response frame's swap call (put-image into the X server)";
  // The remote stages appear only where something measured them (local sessions keep the four).
  for (const auto& [name, values] : {std::pair<const char*, const std::vector<double>*>{"CS_ms", &cs},
                                     {"SP_ms", &sp}, {"CP_ms", &cp}, {"SS_ms", &ss}, {"FC_ms", &fc}}) {
    if (!stats::known(*values).empty()) stages[name] = distribution_json(*values);
  }
  out["stages_ms"] = stages;
  const auto matched = counts[static_cast<int>(MatchStatus::matched)];
  out["inputs"] = {
      {"sent", inputs.size()},
      {"matched", matched},
      {"unmatched", inputs.size() - matched},
      {"not_read", counts[static_cast<int>(MatchStatus::not_read)]},
      {"no_response_frame", counts[static_cast<int>(MatchStatus::no_response_frame)]},
      {"not_seen", counts[static_cast<int>(MatchStatus::not_seen)]},
  };

  // What the client saw: each app frame once is the ideal; a frame seen again is a duplicate, a
  // frame number skipped between the first and the last one seen is a missed frame.
  std::set<std::uint64_t> distinct;
  std::size_t decoded = 0;
  std::size_t duplicates = 0;
  std::int64_t first_new_ns = 0;
  std::int64_t last_new_ns = 0;
  for (const SeenFrame& c : t.seen) {
    if (!c.frame) continue;
    ++decoded;
    if (!distinct.insert(*c.frame).second) {
      ++duplicates;
      continue;
    }
    if (distinct.size() == 1) first_new_ns = c.seen_ns;
    last_new_ns = c.seen_ns;
  }
  nlohmann::json frames;
  frames["captures"] = t.seen.size();
  frames["decoded"] = decoded;
  frames["undecoded"] = t.seen.size() - decoded;
  frames["seen"] = distinct.size();
  frames["duplicates"] = duplicates;
  frames["missed"] = distinct.empty() ? nlohmann::json()
                                      : nlohmann::json(*distinct.rbegin() - *distinct.begin() + 1 -
                                                       distinct.size());
  // Server frames against client frames: how many app frames the client never received, and how
  // often it received a frame that skipped several (the proxy merged them into one update).
  std::size_t merges = 0;
  for (auto it = distinct.begin(); it != distinct.end() && std::next(it) != distinct.end(); ++it)
    if (*std::next(it) - *it > 1) ++merges;
  frames["app_frames"] = t.have_frames || !t.frames.empty() ? nlohmann::json(t.frames.size()) : nlohmann::json();
  frames["never_seen"] = !t.frames.empty() && !distinct.empty()
                             ? nlohmann::json(t.frames.size() - std::min(t.frames.size(), distinct.size()))
                             : nlohmann::json();
  frames["merges"] = distinct.empty() ? nlohmann::json() : nlohmann::json(merges);
  out["client_frames"] = frames;
  if (t.have_updates) {
    // Every FramebufferUpdate counts, whether or not its pixels carried a readable marker.
    const auto& u = t.updates;
    if (u.size() >= 2 && u.back().end_ns > u.front().end_ns) {
      out["fps_client_updates"] = static_cast<double>(u.size() - 1) /
                                  (static_cast<double>(u.back().end_ns - u.front().end_ns) / 1e9);
    } else {
      out["fps_client_updates"] = nullptr;
      notes.push_back("fps_client_updates unknown: fewer than two client updates");
    }
  }
  if (distinct.size() >= 2 && last_new_ns > first_new_ns) {
    out["fps_client"] = static_cast<double>(distinct.size() - 1) /
                        (static_cast<double>(last_new_ns - first_new_ns) / 1e9);
  } else {
    out["fps_client"] = nullptr;
    notes.push_back(decoded == 0 ? "fps_client unknown: the client read no marker, so it cannot "
                                   "tell new frames from repeated captures"
                                 : "fps_client unknown: fewer than two distinct frames seen");
  }
  out["rtt_notes"] = notes;
  return out;
}

}  // namespace pictor::analysis

namespace pictor::analysis {

std::string format_rtt_summary(const nlohmann::json& summary) {
  if (!summary.is_object() || !summary.contains("rtt_ms")) return {};
  auto num = [](const nlohmann::json& v) -> std::string {
    if (!v.is_number()) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", v.get<double>());
    return b;
  };
  std::string out;
  if (summary.contains("inputs")) {
    const auto& in = summary["inputs"];
    out += "Inputs              " + std::to_string(in.value("sent", 0)) + " sent, " +
           std::to_string(in.value("matched", 0)) + " matched to the frame that answers them\n";
  }
  char line[256];
  std::snprintf(line, sizeof line, "%-12s %6s %8s %17s %8s %8s %8s %8s %8s\n", "Latency (ms)", "n", "mean",
                "95% CI of mean", "min", "p50", "p99", "max", "");
  out += line;
  auto row = [&](const std::string& name, const nlohmann::json& d) {
    if (!d.is_object()) return;
    std::string ci = "-";
    if (d.contains("ci95") && d["ci95"].is_array() && d["ci95"].size() == 2)
      ci = num(d["ci95"][0]) + ".." + num(d["ci95"][1]);
    std::snprintf(line, sizeof line, "  %-10s %6lld %8s %17s %8s %8s %8s %8s\n", name.c_str(),
                  static_cast<long long>(d.value("n", 0)), num(d["mean"]).c_str(), ci.c_str(), num(d["min"]).c_str(),
                  num(d["p50"]).c_str(), num(d["p99"]).c_str(), num(d["max"]).c_str());
    out += line;
  };
  row("RTT", summary["rtt_ms"]);
  if (summary.contains("stages_ms") && summary["stages_ms"].is_object())
    for (const char* stage : {"CS_ms", "SP_ms", "PS_ms", "AL_ms", "RD_ms", "FC_ms", "AS_ms", "CP_ms", "SS_ms"})
      if (summary["stages_ms"].contains(stage))
        row(std::string(stage).substr(0, 2) + (std::string(stage) == "RD_ms" ? " (timer)" : ""),
            summary["stages_ms"][stage]);
  if (summary.contains("fps_client") && summary["fps_client"].is_number())
    out += "Client FPS          " + num(summary["fps_client"]) + "\n";
  if (summary.contains("fps_client_updates") && summary["fps_client_updates"].is_number())
    out += "Client updates/s    " + num(summary["fps_client_updates"]) + "\n";
  return out;
}

}  // namespace pictor::analysis
