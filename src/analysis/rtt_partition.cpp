// The partition rule of rtt_partition.h: one walk along each input's timestamps.
#include "analysis/rtt_partition.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/rtt.h"

namespace pictor::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One timestamp of the path: the stage that ends there, its time, and whether an early value is
// an overlap with the previous stage (clamped) rather than an inconsistency (dropped).
struct Point {
  Column stage;
  std::optional<std::int64_t> ns;
  bool clamp;
};

// The field of m that holds column c (const or not).
template <typename Input>
auto* slot(Input& m, Column c) {
  switch (c) {
    case Column::CS: return &m.cs_ms;
    case Column::SP: return &m.sp_ms;
    case Column::wait_app: return &m.wait_app_ms;
    case Column::PS: return &m.ps_ms;
    case Column::AL: return &m.al_ms;
    case Column::AS: return &m.as_ms;
    case Column::wait_later_frame: return &m.wait_later_frame_ms;
    case Column::wait_proxy: return &m.wait_proxy_ms;
    case Column::CP: return &m.cp_ms;
    case Column::SS: return &m.ss_ms;
    case Column::unattributed: return &m.unattributed_ms;
  }
  return &m.unattributed_ms;
}

std::vector<Point> path_points(const MatchedInput& m) {
  const InputPath& p = m.path;
  std::vector<Point> out;
  if (p.remote) out.push_back({Column::CS, p.proxy_read_ns, false});
  if (p.delivers) out.push_back({Column::SP, p.delivered_ns, false});
  // The app was busy in a frame when the input reached it until that frame's swap returned; when
  // the swap returned before the input arrived, wait_app is 0 (clamped to the hand-over).
  out.push_back({Column::wait_app, p.read_ns ? p.app_free_ns : std::nullopt, true});
  out.push_back({Column::PS, p.read_ns, false});
  out.push_back({Column::AL, p.swap_ns, false});
  out.push_back({Column::AS, p.swap_return_ns, true});
  out.push_back({Column::wait_later_frame, p.shown_return_ns, true});
  if (p.remote) {
    out.push_back({Column::wait_proxy, p.proxy_start_ns, true});
    out.push_back({Column::CP, p.proxy_sent_ns, true});
  }
  return out;
}

double ms(std::int64_t from, std::int64_t to) { return static_cast<double>(to - from) / 1e6; }

}  // namespace

const std::array<ColumnInfo, kColumns>& partition_columns() {
  static const std::array<ColumnInfo, kColumns> columns{{
      {Column::CS, "CS_ms", "CS", true},
      {Column::SP, "SP_ms", "SP", true},
      {Column::wait_app, "wait_app_ms", "wait app", false},
      {Column::PS, "PS_ms", "PS", false},
      {Column::AL, "AL_ms", "AL", false},
      {Column::AS, "AS_ms", "AS", false},
      {Column::wait_later_frame, "wait_later_frame_ms", "wait later", false},
      {Column::wait_proxy, "wait_proxy_ms", "wait proxy", true},
      {Column::CP, "CP_ms", "CP", true},
      {Column::SS, "SS_ms", "SS", false},
      {Column::unattributed, "unattributed_ms", "unattrib.", false},
  }};
  return columns;
}

double column_value(const MatchedInput& m, Column c) { return *slot(m, c); }

PartitionCounts partition_rtt(std::span<MatchedInput> inputs) {
  PartitionCounts counts;
  for (MatchedInput& m : inputs) {
    for (const ColumnInfo& c : partition_columns()) *slot(m, c.column) = kNaN;
    const bool matched = m.status == MatchStatus::matched && m.seen_ns.has_value();
    const std::int64_t seen = matched ? *m.seen_ns : 0;
    const std::int64_t upper = matched ? seen : std::numeric_limits<std::int64_t>::max();
    std::int64_t last = m.input.sent_ns;  // the latest timestamp accepted
    bool last_is_previous = true;         // ... and it is the point just before this one
    std::int64_t unattributed = 0;
    bool overlap = false, dropped = false;
    auto take = [&](Column stage, std::int64_t at) {
      if (last_is_previous) {
        *slot(m, stage) = ms(last, at);
      } else {
        unattributed += at - last;
      }
      last = at;
      last_is_previous = true;
    };
    for (const Point& p : path_points(m)) {
      if (!p.ns) {
        last_is_previous = false;
        continue;
      }
      std::int64_t at = *p.ns;
      if (p.clamp) {
        // Raised to the previous timestamp only when that one is the stage's real start: after an
        // unknown timestamp, an early value says nothing about where this stage begins.
        if (at < last && !last_is_previous) continue;
        const std::int64_t clamped = std::clamp(at, last, std::max(last, upper));
        // wait_app's lower clamp is its definition (the app was free), not an overlap.
        if (clamped != at && p.stage != Column::wait_app) overlap = true;
        at = clamped;
      } else if (at < last || at > upper) {
        dropped = true;
        last_is_previous = false;
        continue;
      }
      take(p.stage, at);
    }
    if (matched) {
      take(Column::SS, seen);
      m.unattributed_ms = static_cast<double>(unattributed) / 1e6;
    }
    counts.overlaps += overlap ? 1 : 0;
    counts.out_of_order += dropped ? 1 : 0;
  }
  return counts;
}

bool is_software_renderer(std::string_view renderer) {
  std::string lower(renderer);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "software rasterizer"})
    if (lower.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace pictor::analysis
