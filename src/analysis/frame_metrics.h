// The frame-time metrics of DESIGN 6 on plain vectors of frame times in ms: stutter and stall
// detection and the two conventions of "1 % / 0.1 % low" FPS. summary.cpp assembles them into
// summary.json.
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

// A stall is a time of at least kStallMs with no frame (DESIGN 6): a frame time that long, or the
// time from the last frame to the end of the session. A second is 60 frames at 60 FPS: no app
// means that as one frame, and a loading screen that shows nothing for that long looks hung.
inline constexpr double kStallMs = 1000.0;

struct Stall {
  // Index into frame_ms of the frame time that is the stall; frame_ms.size() for the one at the end.
  std::size_t interval = 0;
  double start_ms = 0.0;     // from the first frame: the sum of the (known) frame times before it
  double duration_ms = 0.0;
  bool at_end = false;       // from the last frame to the end of the session
};

// Every frame time >= threshold_ms, in order, then the time from the last frame to the end of the
// session when that is >= threshold_ms. tail_ms is that time (NaN when the end is unknown; a
// negative one, frames presented after the end, is no stall). Unknown (NaN) frame times are no
// stall and do not advance start_ms.
std::vector<Stall> find_stalls(std::span<const double> frame_ms, double tail_ms, double threshold_ms = kStallMs);

// PresentMon style: 1000 / (nearest-rank p-th percentile of frame time). sorted_ms ascending;
// NaN when empty or when that percentile is 0.
double low_fps_at_percentile(std::span<const double> sorted_ms, double p);

// CapFrameX style: the average FPS over the slowest fraction of frames, i.e. k frames divided by
// their total time, with k = ceil(fraction * n) (at least 1). sorted_ms ascending; NaN when empty.
double low_fps_average(std::span<const double> sorted_ms, double fraction);

}  // namespace pictor::analysis
