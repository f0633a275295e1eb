// The frame-time metrics of DESIGN 6 on plain vectors of frame times in ms: stutter detection
// and the two conventions of "1 % / 0.1 % low" FPS. summary.cpp assembles them into summary.json.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace pictor::analysis {

// A stutter is a frame longer than kStutterFactor times the median of the kStutterWindow frames
// before it. 30 frames is half a second at 60 FPS: long enough that one spike cannot move the
// median, short enough to follow a change of scene within a second.
inline constexpr std::size_t kStutterWindow = 30;
inline constexpr double kStutterFactor = 2.5;

struct Stutters {
  std::vector<std::size_t> frames;  // indices into frame_ms
  double time_ms = 0.0;             // sum of their frame times
};

// Frame 0 is never a stutter (nothing precedes it); frames 1..window-1 compare against the frames
// that do precede them. The median is the nearest-rank 50th percentile (the lower middle value
// for an even count), the same definition as every other percentile in Pictor.
Stutters find_stutters(std::span<const double> frame_ms, std::size_t window = kStutterWindow,
                       double factor = kStutterFactor);

// PresentMon style: 1000 / (nearest-rank p-th percentile of frame time). sorted_ms ascending;
// NaN when empty or when that percentile is 0.
double low_fps_at_percentile(std::span<const double> sorted_ms, double p);

// CapFrameX style: the average FPS over the slowest fraction of frames, i.e. k frames divided by
// their total time, with k = ceil(fraction * n) (at least 1). sorted_ms ascending; NaN when empty.
double low_fps_average(std::span<const double> sorted_ms, double fraction);

}  // namespace pictor::analysis
