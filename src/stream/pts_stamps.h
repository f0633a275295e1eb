// The probes' timestamp bookkeeping: a pad probe before an element stamps a buffer by its PTS,
// one after it takes the stamp back (x264enc and avdec_h264 keep each frame's PTS). Pure: no
// GStreamer, unit-tested; the pipelines hold one per timed element.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace pictor::stream {

template <typename T>
class PtsStamps {
 public:
  // At most `capacity` frames inside the element at once; older stamps are dropped (counted).
  explicit PtsStamps(std::size_t capacity = 256) : capacity_(capacity) {}

  void enter(std::uint64_t pts, T value) {
    if (entries_.size() >= capacity_) {
      entries_.pop_front();
      ++dropped_;
    }
    entries_.emplace_back(pts, std::move(value));
  }

  // The stamp of the frame with `pts`; frames entered before it that never left are dropped (an
  // element that skipped them, e.g. an encoder dropping a frame), counted in dropped().
  std::optional<T> leave(std::uint64_t pts) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].first != pts) continue;
      T value = std::move(entries_[i].second);
      dropped_ += i;
      entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return value;
    }
    ++unknown_;
    return std::nullopt;
  }

  // The oldest stamp, for an element that keeps frame order but not PTS: x264enc (GstVideoEncoder
  // shifts every PTS by 1000 h so DTS cannot go negative) with zero latency emits one frame per
  // frame it took, in order.
  std::optional<T> leave_oldest() {
    if (entries_.empty()) {
      ++unknown_;
      return std::nullopt;
    }
    T value = std::move(entries_.front().second);
    entries_.pop_front();
    return value;
  }

  std::size_t inside() const { return entries_.size(); }
  std::uint64_t dropped() const { return dropped_; }  // entered, never left
  std::uint64_t unknown() const { return unknown_; }  // left without having entered

 private:
  std::size_t capacity_;
  std::deque<std::pair<std::uint64_t, T>> entries_;
  std::uint64_t dropped_ = 0, unknown_ = 0;
};

}  // namespace pictor::stream
