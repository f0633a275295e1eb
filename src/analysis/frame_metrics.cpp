// Stutter and stall detection and low-FPS figures (definitions in frame_metrics.h and docs/metrics.md).
#include "analysis/frame_metrics.h"

#include <algorithm>
#include <limits>

#include "analysis/stats.h"

namespace pictor::analysis {

Stutters find_stutters(std::span<const double> frame_ms, std::size_t window, double factor) {
  Stutters out;
  if (window == 0) return out;
  // The preceding window kept sorted: reading its median is an index, and sliding it is one
  // insertion and one removal in a vector of at most `window` values.
  std::vector<double> sorted_window;
  sorted_window.reserve(window + 1);
  for (std::size_t i = 0; i < frame_ms.size(); ++i) {
    if (i > 0) {
      const double median = sorted_window[stats::nearest_rank(50.0, sorted_window.size()) - 1];
      if (frame_ms[i] > factor * median) {
        out.frames.push_back(i);
        out.time_ms += frame_ms[i];
      }
    }
    sorted_window.insert(std::upper_bound(sorted_window.begin(), sorted_window.end(), frame_ms[i]),
                         frame_ms[i]);
    if (sorted_window.size() > window) {
      // Leaves frame i - window; any equal value is the same number, so the first match will do.
      sorted_window.erase(std::lower_bound(sorted_window.begin(), sorted_window.end(),
                                           frame_ms[i - window]));
    }
  }
  return out;
}

std::vector<Stall> find_stalls(std::span<const double> frame_ms, double tail_ms, double threshold_ms) {
  std::vector<Stall> out;
  double t_ms = 0.0;
  for (std::size_t i = 0; i < frame_ms.size(); ++i) {
    const double dt = frame_ms[i];
    if (!(dt >= 0.0)) continue;  // unknown: neither a stall nor time on the axis
    if (dt >= threshold_ms) out.push_back({i, t_ms, dt, false});
    t_ms += dt;
  }
  if (tail_ms >= threshold_ms) out.push_back({frame_ms.size(), t_ms, tail_ms, true});
  return out;
}

double low_fps_at_percentile(std::span<const double> sorted_ms, double p) {
  const double ms = stats::percentile_sorted(sorted_ms, p);
  if (!(ms > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return 1000.0 / ms;
}

double low_fps_average(std::span<const double> sorted_ms, double fraction) {
  const std::size_t k = stats::count_of_fraction(fraction, sorted_ms.size());
  if (k == 0) return std::numeric_limits<double>::quiet_NaN();
  const double slowest_ms = stats::sum(sorted_ms.subspan(sorted_ms.size() - k));
  if (!(slowest_ms > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(k) / (slowest_ms / 1000.0);
}

}  // namespace pictor::analysis
