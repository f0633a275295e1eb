// Stutter detection and low-FPS figures (definitions in frame_metrics.h and docs/metrics.md).
#include "analysis/frame_metrics.h"

#include <algorithm>
#include <limits>

#include "analysis/stats.h"

namespace pictor::analysis {

Stutters find_stutters(std::span<const double> frame_ms, std::size_t window, double factor) {
  Stutters out;
  std::vector<double> buffer;
  buffer.reserve(window);
  for (std::size_t i = 1; i < frame_ms.size() && window > 0; ++i) {
    const std::size_t first = i > window ? i - window : 0;
    buffer.assign(frame_ms.begin() + static_cast<std::ptrdiff_t>(first),
                  frame_ms.begin() + static_cast<std::ptrdiff_t>(i));
    // nth_element finds the nearest-rank median in linear time without sorting the window.
    const std::size_t rank = stats::nearest_rank(50.0, buffer.size());
    auto nth = buffer.begin() + static_cast<std::ptrdiff_t>(rank - 1);
    std::nth_element(buffer.begin(), nth, buffer.end());
    if (frame_ms[i] > factor * *nth) {
      out.frames.push_back(i);
      out.time_ms += frame_ms[i];
    }
  }
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
