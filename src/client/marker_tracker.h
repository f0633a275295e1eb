// Turns the wire-width marker readings of successive captures into full 64-bit tags and app frame
// numbers, and tells repeated captures of one frame apart from new frames. Pure: no X, no clock.
#pragma once
#include <cstdint>
#include <optional>

#include "tag/marker_code.h"

namespace pictor::client {

class MarkerTracker {
 public:
  struct Reading {
    std::optional<std::uint64_t> tag;    // full tag; nullopt when the capture had no usable marker
    std::optional<std::uint64_t> frame;  // full app frame number
    bool repeat = false;                 // the same app frame as the previous decoded capture
    bool implausible = false;            // a marker read, rejected: its tag is beyond `sent`
  };

  // One capture's marker (nullopt: none read). `sent` is how many tracked inputs the client has
  // sent: the app cannot have read more, so a tag beyond it is a false read and is rejected.
  // Tags unwrap to the value nearest the last tag (tag_at_least's ±2048 window); frame numbers
  // only move forward, by frames_between() of the last one (up to 255 frames between captures).
  Reading update(const std::optional<tag::MarkerPayload>& payload, std::uint64_t sent);

  std::optional<std::uint64_t> tag() const { return tag_; }
  std::optional<std::uint64_t> frame() const { return frame_; }

 private:
  std::optional<std::uint64_t> tag_;
  std::optional<std::uint64_t> frame_;
};

}  // namespace pictor::client
