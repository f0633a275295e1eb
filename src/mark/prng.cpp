#include "mark/prng.h"

#include <cmath>
#include <numbers>

namespace pictor::mark {

int Prng::integer(int min, int max) {
  return static_cast<int>(std::floor(range(min, static_cast<double>(max) + 1)));
}

double Prng::angle() { return range(0, 2 * std::numbers::pi); }

}  // namespace pictor::mark
