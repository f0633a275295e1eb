#include "client/marker_tracker.h"

namespace pictor::client {

MarkerTracker::Reading MarkerTracker::update(const std::optional<tag::MarkerPayload>& payload,
                                             std::uint64_t sent) {
  Reading r;
  if (!payload) return r;
  const std::uint64_t tag = tag::unwrap_counter(payload->tag, tag::kTagBits, tag_.value_or(0));
  if (tag > sent) {
    r.implausible = true;
    return r;
  }
  std::uint64_t frame = 0;
  if (frame_) {
    const auto last_lo = static_cast<std::uint32_t>(*frame_ & tag::kFrameMask);
    const int ahead = tag::frames_between(last_lo, payload->frame_lo);
    frame = *frame_ + static_cast<std::uint64_t>(ahead);
    r.repeat = ahead == 0;
  } else {
    // The client starts before the app's first swap, so its first capture is among the app's
    // first 256 frames.
    frame = payload->frame_lo;
  }
  tag_ = tag;
  frame_ = frame;
  r.tag = tag;
  r.frame = frame;
  return r;
}

}  // namespace pictor::client
