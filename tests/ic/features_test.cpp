// Feature layout: top K per class by confidence, zero padding, presence flags.
#include "ic/features.h"

#include <gtest/gtest.h>

namespace pictor::ic {
namespace {

TEST(Features, TopKPerClassByConfidenceZeroPadded) {
  const FeatureLayout layout{2, 2};
  ASSERT_EQ(layout.size(), 2 * 2 * 6);
  const std::vector<Detection> objects = {
      {0, 0.1f, 0.2f, 0.05f, 0.06f, 0.4f},
      {0, 0.5f, 0.5f, 0.1f, 0.1f, 0.9f},
      {0, 0.7f, 0.7f, 0.1f, 0.1f, 0.3f},  // third of class 0: dropped
      {1, 0.3f, 0.3f, 0.2f, 0.2f, 0.8f},
      {5, 0.3f, 0.3f, 0.2f, 0.2f, 0.99f},  // unknown class: ignored
  };
  const std::vector<float> f = frame_features(objects, layout);
  ASSERT_EQ(f.size(), 24u);
  const std::vector<float> expect = {1, 0.5f, 0.5f, 0.1f, 0.1f, 0.9f,   1, 0.1f, 0.2f, 0.05f, 0.06f, 0.4f,
                                     1, 0.3f, 0.3f, 0.2f, 0.2f, 0.8f,   0, 0, 0, 0, 0, 0};
  EXPECT_EQ(f, expect);
}

TEST(Features, EqualConfidencesOrderedLeftToRight) {
  const FeatureLayout layout{1, 3};
  const std::vector<Detection> objects = {{0, 0.8f, 0.1f, 0.1f, 0.1f, 1}, {0, 0.2f, 0.5f, 0.1f, 0.1f, 1}, {0, 0.5f, 0.9f, 0.1f, 0.1f, 1}};
  const std::vector<float> f = frame_features(objects, layout);
  EXPECT_FLOAT_EQ(f[1], 0.2f);
  EXPECT_FLOAT_EQ(f[7], 0.5f);
  EXPECT_FLOAT_EQ(f[13], 0.8f);
}

TEST(Features, NoObjectsAllZero) {
  const FeatureLayout layout{3, 4};
  const std::vector<float> f = frame_features({}, layout);
  EXPECT_EQ(f, std::vector<float>(72, 0.0f));
}

}  // namespace
}  // namespace pictor::ic
