// The generator must reproduce MotionMark's sequence exactly: the bootstrap bounds depend on it.
#include <gtest/gtest.h>

#include "mark/prng.h"

namespace pictor::mark {
namespace {

TEST(Prng, FirstValuesFromTheMotionMarkSeed) {
  Prng prng;
  // Values printed by MotionMark's own Pseudo.random() under Node for seed 49734321.
  EXPECT_DOUBLE_EQ(prng.next(), 0.9872818551957607);
  EXPECT_DOUBLE_EQ(prng.next(), 0.34880331158638);
  EXPECT_DOUBLE_EQ(prng.next(), 0.5631933622062206);
}

TEST(Prng, ResetRestartsTheSequence) {
  Prng prng;
  const double first = prng.next();
  prng.next();
  prng.reset();
  EXPECT_EQ(prng.next(), first);
  prng.reset(12345);
  Prng other(12345);
  EXPECT_EQ(prng.next(), other.next());
}

TEST(Prng, ValuesStayInUnitIntervalAndIntegersInRange) {
  Prng prng(1);
  for (int i = 0; i < 10000; ++i) {
    const double v = prng.next();
    ASSERT_GE(v, 0.0);
    ASSERT_LT(v, 1.0);
    const int k = prng.integer(3, 7);
    ASSERT_GE(k, 3);
    ASSERT_LE(k, 7);
  }
}

}  // namespace
}  // namespace pictor::mark
