// The seeded pseudo-random generator of MotionMark 1.3.1 (a Jenkins 32-bit integer hash chain).
// Bootstrap resampling and every stage's scene come from it, so runs are reproducible bit for bit.
#pragma once
#include <cstdint>

namespace pictor::mark {

class Prng {
 public:
  // MotionMark's initial seed; the bootstrap resets to it at every call.
  static constexpr uint32_t kMotionMarkSeed = 49734321u;

  explicit Prng(uint32_t seed = kMotionMarkSeed) : state_(seed) {}
  void reset(uint32_t seed = kMotionMarkSeed) { state_ = seed; }
  uint32_t state() const { return state_; }

  // Next value in [0, 1) with 28 bits of resolution: (state & 0x0fffffff) / 2^28. The JS original
  // works on doubles masked to 32 bits; unsigned wrap-around gives the same bits.
  double next() {
    uint32_t s = state_;
    s = s + 0x7ed55d16u + (s << 12);
    s = (s ^ 0xc761c23cu) ^ (s >> 19);
    s = s + 0x165667b1u + (s << 5);
    s = (s + 0xd3a2646cu) ^ (s << 9);
    s = s + 0xfd7046c5u + (s << 3);
    s = (s ^ 0xb55a4f09u) ^ (s >> 16);
    state_ = s;
    return static_cast<double>(s & 0x0fffffffu) / 268435456.0;
  }

  // Helpers in MotionMark's Stage vocabulary, used by the scenes.
  double range(double min, double max) { return next() * (max - min) + min; }
  // Integer in [min, max], both inclusive.
  int integer(int min, int max);
  double angle();  // [0, 2π)
  double sign() { return next() >= 0.5 ? 1.0 : -1.0; }

 private:
  uint32_t state_;
};

}  // namespace pictor::mark
