// summary.json's input-latency part: RTT and stage distributions with bootstrap CIs, input counts,
// client FPS and what the client saw of the app's frames.
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <set>

#include "analysis/bootstrap.h"
#include "analysis/rtt.h"
#include "analysis/rtt_partition.h"
#include "analysis/stats.h"
#include "core/json_util.h"

namespace pictor::analysis {

namespace {


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

namespace {

// stages_ms and rtt_partition: every partition column on this session's path with its share of
// the RTT, then RD and FC, which overlap the others.
void stage_summary(const RttTimeline& t, std::span<const MatchedInput> inputs, nlohmann::json& out) {
  const bool remote = t.have_updates || t.have_proxy;
  const bool software = is_software_renderer(t.gl_renderer);
  nlohmann::json stages;
  std::vector<std::string> columns;
  for (const ColumnInfo& c : partition_columns()) {
    std::vector<double> values, shares;
    for (const MatchedInput& m : inputs) {
      const double v = column_value(m, c.column);
      values.push_back(v);
      if (m.status == MatchStatus::matched && std::isfinite(v) && m.rtt_ms > 0) shares.push_back(v / m.rtt_ms);
    }
    // A remote stage appears only where something measured it (SP: x11vnc's deliveries).
    if (c.remote_only && (!remote || stats::known(values).empty())) continue;
    nlohmann::json d = distribution_json(values);
    d["rtt_share"] = number_or_null(shares.empty() ? NAN : stats::mean(shares));
    d["in_rtt_sum"] = true;
    stages[c.name] = d;
    columns.push_back(c.name);
  }
  stages["AS_ms"]["label"] = software ? "RD+AS" : "AS";
  stages["AS_ms"]["source"] =
      software ? "the response frame's swap call; the software renderer rasterises inside it, so this is RD+AS"
               : "the response frame's swap call (the put-image into the X server)";
  std::vector<double> rd, fc;
  for (const MatchedInput& m : inputs) {
    rd.push_back(m.rd_ms);
    fc.push_back(m.fc_ms);
  }
  stages["RD_ms"] = distribution_json(rd);
  stages["RD_ms"]["in_rtt_sum"] = false;
  // Not a CPU interval like the others: the GPU's own time for the response frame.
  if (t.api == "Vulkan")
    stages["RD_ms"]["source"] = "Vulkan timestamp queries around the response frame's submissions (GPU time; "
                                "overlaps AL and AS)";
  else
    stages["RD_ms"]["source"] =
        software ? "GL timer query; llvmpipe's queries do not see its raster threads, whose work is in AS (RD+AS)"
                 : "GL timer query (GPU time of the response frame; overlaps AL and AS)";
  if (!stats::known(fc).empty()) {
    stages["FC_ms"] = distribution_json(fc);
    stages["FC_ms"]["in_rtt_sum"] = false;
  }
  if (t.clock_offset_ns) {
    // Two hosts: a stage from one host's timestamp to the other's holds the clock offset's error.
    // The input's first leg (CS, or wait_app without the proxy's reads), SS, and unattributed
    // (which may span the hosts) are those; the RTT itself is the client's clock alone.
    const double u = t.clock_uncertainty_ns ? static_cast<double>(*t.clock_uncertainty_ns) * 1e-6 : NAN;
    nlohmann::json crossing = nlohmann::json::array();
    for (const char* name : {t.have_proxy ? "CS_ms" : "wait_app_ms", "SS_ms", "unattributed_ms"}) {
      if (!stages.contains(name)) continue;
      stages[name]["cross_host"] = true;
      stages[name]["clock_uncertainty_ms"] = number_or_null(u);
      crossing.push_back(name);
    }
    out["clock_offset"] = {{"offset_ms", static_cast<double>(*t.clock_offset_ns) * 1e-6},
                           {"uncertainty_ms", number_or_null(u)},
                           {"cross_host_stages", crossing},
                           {"source", "run.json two_hosts.clock (docs/two-hosts.md)"}};
  }
  out["stages_ms"] = stages;

  // Per matched input: does the partition hold, and how much of the RTT did nothing cover.
  std::size_t matched = 0, complete = 0;
  double max_error = 0;
  std::vector<double> unattributed_share;
  for (const MatchedInput& m : inputs) {
    if (m.status != MatchStatus::matched) continue;
    ++matched;
    double sum = 0;
    bool all = true;
    for (const ColumnInfo& c : partition_columns()) {
      const double v = column_value(m, c.column);
      if (std::isfinite(v)) sum += v;
      const bool listed = std::find(columns.begin(), columns.end(), c.name) != columns.end();
      if (listed && c.column != Column::unattributed && !std::isfinite(v)) all = false;
    }
    max_error = std::max(max_error, std::fabs(sum - m.rtt_ms));
    complete += all ? 1 : 0;
    if (m.rtt_ms > 0 && std::isfinite(m.unattributed_ms)) unattributed_share.push_back(m.unattributed_ms / m.rtt_ms);
  }
  nlohmann::json part;
  part["columns"] = columns;
  part["matched"] = matched;
  part["complete"] = complete;  // every column on the path known: unattributed_ms is 0
  part["max_sum_error_ms"] = matched ? nlohmann::json(max_error) : nlohmann::json();
  part["unattributed_share"] = {
      {"mean", number_or_null(unattributed_share.empty() ? NAN : stats::mean(unattributed_share))},
      {"max", number_or_null(unattributed_share.empty()
                                 ? NAN
                                 : *std::max_element(unattributed_share.begin(), unattributed_share.end()))}};
  part["gl_renderer"] = t.gl_renderer.empty() ? nlohmann::json() : nlohmann::json(t.gl_renderer);
  part["software_renderer"] = software;
  part["api"] = t.api.empty() ? nlohmann::json() : nlohmann::json(t.api);
  out["rtt_partition"] = part;
}

}  // namespace

nlohmann::json rtt_summary(const RttTimeline& t, std::span<const MatchedInput> inputs,
                           std::vector<std::string> notes) {
  nlohmann::json out;
  std::vector<double> rtt;
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const MatchedInput& m : inputs) {
    ++counts[static_cast<int>(m.status)];
    rtt.push_back(m.rtt_ms);
  }
  out["rtt_ms"] = distribution_json(rtt);
  stage_summary(t, inputs, out);
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
  // The app's frame rate over the frames the client saw, first to last: fps_client's yardstick.
  // The session's fps_avg covers the app's whole run (its slow start too), a span the client
  // never watched.
  frames["app_fps_same_span"] = nullptr;
  if (distinct.size() >= 2 && !t.frames.empty()) {
    const auto swap_of = [&](std::uint64_t n) -> std::optional<std::int64_t> {
      const auto it = std::lower_bound(t.frames.begin(), t.frames.end(), n,
                                       [](const AppFrame& f, std::uint64_t v) { return f.frame < v; });
      if (it == t.frames.end() || it->frame != n) return std::nullopt;
      return it->swap_ns;
    };
    const auto a = swap_of(*distinct.begin());
    const auto b = swap_of(*distinct.rbegin());
    if (a && b && *b > *a)
      frames["app_fps_same_span"] = static_cast<double>(*distinct.rbegin() - *distinct.begin()) /
                                    (static_cast<double>(*b - *a) / 1e9);
    else
      notes.push_back("client_frames.app_fps_same_span unknown: the app's record lacks the first "
                      "or last frame the client saw");
  }
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
