#include "net/shaper.h"

#include <algorithm>
#include <cmath>

namespace pictor::net {

double loss_penalty_s(const NetSpec& spec) { return std::max(0.200, 2.0 * spec.delay_s); }

DirectionShaper::DirectionShaper(const NetSpec& spec, uint64_t seed) : spec_(spec), random_(seed) {}

int64_t DirectionShaper::release_ns(int64_t arrival_ns, std::size_t bytes) {
  ++chunks_;
  // Rate: the chunk occupies the link for its serialisation time after the previous one leaves.
  int64_t departed = arrival_ns;
  if (spec_.rate_bits_s > 0) {
    const double serialise_s = static_cast<double>(bytes) * 8.0 / spec_.rate_bits_s;
    link_free_ns_ = std::max(link_free_ns_, arrival_ns) + static_cast<int64_t>(std::llround(serialise_s * 1e9));
    departed = link_free_ns_;
  }
  double extra_s = spec_.delay_s;
  if (spec_.jitter_s > 0) {
    std::uniform_real_distribution<double> jitter(-spec_.jitter_s, spec_.jitter_s);
    extra_s = std::max(0.0, extra_s + jitter(random_));
  }
  if (spec_.loss > 0) {
    std::uniform_real_distribution<double> draw(0.0, 1.0);
    if (draw(random_) < spec_.loss) {
      ++lost_;
      extra_s += loss_penalty_s(spec_);
    }
  }
  // Jitter never reorders a TCP stream: a chunk waits for the one before it.
  last_release_ns_ = std::max(last_release_ns_, departed + static_cast<int64_t>(std::llround(extra_s * 1e9)));
  return last_release_ns_;
}

}  // namespace pictor::net
