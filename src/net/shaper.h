// One direction of the emulated link as pure timing logic: given when a chunk of bytes arrived,
// it says when the chunk may be released. The relay applies it; tests drive it with fake clocks.
#pragma once
#include <cstdint>
#include <random>

#include "net/spec.h"

namespace pictor::net {

// Extra time a "lost" chunk costs: a TCP stream cannot drop bytes, so loss shows up as the wait
// for a retransmission, max(200 ms minimum RTO, 2 x one-way delay = the emulated RTT).
double loss_penalty_s(const NetSpec& spec);

class DirectionShaper {
 public:
  DirectionShaper(const NetSpec& spec, uint64_t seed);

  // Release time (ns, same clock as arrival) of a chunk of `bytes` that arrived at `arrival_ns`.
  // Order is preserved: the result is never earlier than the previous chunk's release.
  int64_t release_ns(int64_t arrival_ns, std::size_t bytes);

  uint64_t chunks() const { return chunks_; }
  uint64_t lost_chunks() const { return lost_; }

 private:
  NetSpec spec_;
  std::mt19937_64 random_;
  int64_t link_free_ns_ = 0;    // when the serialising link finishes the previous chunk
  int64_t last_release_ns_ = 0;
  uint64_t chunks_ = 0;
  uint64_t lost_ = 0;
};

}  // namespace pictor::net
