// Grid decoding, non-maximum suppression and the detection scores.
#include "ic/detections.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pictor::ic {
namespace {

float logit(float p) { return std::log(p / (1 - p)); }

// A 4 x 2 grid with 2 classes; every cell "no object" unless set.
struct Grid {
  static constexpr int kW = 4, kH = 2, kC = 2;
  std::vector<float> data = std::vector<float>((5 + kC) * kW * kH, 0.0f);
  Grid() {
    for (int i = 0; i < kW * kH; ++i) data[static_cast<std::size_t>(i)] = -10;
  }
  void set(int gx, int gy, float obj, float ox, float oy, float w, float h, int cls) {
    const int plane = kW * kH, cell = gy * kW + gx;
    const float v[5] = {logit(obj), logit(ox), logit(oy), logit(std::sqrt(w)), logit(std::sqrt(h))};
    for (int c = 0; c < 5; ++c) data[static_cast<std::size_t>(c * plane + cell)] = v[c];
    data[static_cast<std::size_t>((5 + cls) * plane + cell)] = 10;  // class all but certain
  }
  GridOutput view() const { return {data.data(), kW, kH, kC}; }
};

TEST(DecodeGrid, BoxesFromCellsAboveThreshold) {
  Grid g;
  g.set(1, 0, 0.9f, 0.5f, 0.5f, 0.2f, 0.4f, 1);
  g.set(3, 1, 0.2f, 0.5f, 0.5f, 0.2f, 0.4f, 0);  // below the threshold
  const auto d = decode_grid(g.view(), 0.3, 0.5);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].cls, 1);
  EXPECT_NEAR(d[0].cx, 1.5f / 4, 1e-4);
  EXPECT_NEAR(d[0].cy, 0.5f / 2, 1e-4);
  EXPECT_NEAR(d[0].w, 0.2f, 1e-4);
  EXPECT_NEAR(d[0].h, 0.4f, 1e-4);
  EXPECT_NEAR(d[0].confidence, 0.9f, 1e-3);
}

TEST(DecodeGrid, NmsKeepsMostConfidentOfOverlappingSameClass) {
  Grid g;
  g.set(1, 0, 0.8f, 0.9f, 0.5f, 0.5f, 0.8f, 0);  // centre x = 1.9/4
  g.set(2, 0, 0.95f, 0.1f, 0.5f, 0.5f, 0.8f, 0);  // centre x = 2.1/4: overlaps the first
  g.set(0, 1, 0.7f, 0.5f, 0.5f, 0.1f, 0.1f, 1);   // other class, elsewhere
  const auto d = decode_grid(g.view(), 0.3, 0.5);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NEAR(d[0].confidence, 0.95f, 1e-3);
  EXPECT_EQ(d[1].cls, 1);
}

TEST(DetectionScore, PerfectAndMissing) {
  const std::vector<std::vector<Detection>> truth = {{{0, 0.5f, 0.5f, 0.2f, 0.2f, 1}}, {{1, 0.2f, 0.2f, 0.1f, 0.1f, 1}}};
  const auto perfect = score_detections(truth, truth, 2);
  EXPECT_DOUBLE_EQ(perfect.precision, 1.0);
  EXPECT_DOUBLE_EQ(perfect.recall, 1.0);
  EXPECT_DOUBLE_EQ(perfect.map50, 1.0);
  // One right, one wrong place, one missed.
  const std::vector<std::vector<Detection>> found = {{{0, 0.5f, 0.5f, 0.2f, 0.2f, 0.9f}, {0, 0.9f, 0.9f, 0.1f, 0.1f, 0.8f}}, {}};
  const auto s = score_detections(found, truth, 2);
  EXPECT_DOUBLE_EQ(s.precision, 0.5);
  EXPECT_DOUBLE_EQ(s.recall, 0.5);
  EXPECT_DOUBLE_EQ(s.map50, 0.5);  // class 0: AP 1; class 1: AP 0
  ASSERT_EQ(s.per_class.size(), 2u);
  EXPECT_DOUBLE_EQ(s.per_class[0].precision, 0.5);
  EXPECT_DOUBLE_EQ(s.per_class[0].recall, 1.0);
  EXPECT_DOUBLE_EQ(s.per_class[0].ap50, 1.0);
  EXPECT_EQ(s.per_class[0].detections, 2u);
  EXPECT_TRUE(std::isnan(s.per_class[1].precision));  // class 1: nothing detected
  EXPECT_DOUBLE_EQ(s.per_class[1].recall, 0.0);
  EXPECT_DOUBLE_EQ(s.per_class[1].ap50, 0.0);
  EXPECT_EQ(s.per_class[1].truths, 1u);
  // Nothing detected: precision unknown (NaN), never 0 or 1.
  const auto none = score_detections(std::vector<std::vector<Detection>>(2), truth, 2);
  EXPECT_TRUE(std::isnan(none.precision));
  EXPECT_DOUBLE_EQ(none.recall, 0.0);
}

TEST(DetectionScore, BestF1ThresholdDropsTheFalseDetections) {
  // Two true objects found at 0.9 and 0.6; two false detections at 0.4 and 0.2.
  const std::vector<std::vector<Detection>> truth = {{{0, 0.3f, 0.3f, 0.2f, 0.2f, 1}}, {{0, 0.6f, 0.6f, 0.2f, 0.2f, 1}}};
  const std::vector<std::vector<Detection>> found = {
      {{0, 0.3f, 0.3f, 0.2f, 0.2f, 0.9f}, {0, 0.8f, 0.2f, 0.1f, 0.1f, 0.4f}},
      {{0, 0.6f, 0.6f, 0.2f, 0.2f, 0.6f}, {0, 0.1f, 0.9f, 0.1f, 0.1f, 0.2f}}};
  // F1 is 1 from above 0.4 up to 0.6; the highest of those wins.
  EXPECT_DOUBLE_EQ(best_f1_confidence(found, truth, 1, 0.3), 0.6);
  const auto kept = above_confidence(found, 0.6);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].size(), 1u);
  EXPECT_EQ(kept[1].size(), 1u);
  // No truth at all: the fallback.
  EXPECT_DOUBLE_EQ(best_f1_confidence(found, std::vector<std::vector<Detection>>(2), 1, 0.3), 0.3);
}

TEST(PointScore, CountsImagesWhereABoxContainsThePoint) {
  // Image 0: both contain the centre; 1: only a false detection does; 2: only the truth does;
  // 3: neither (the detection misses the point though it overlaps the truth).
  const std::vector<std::vector<Detection>> truth = {
      {{0, 0.5f, 0.5f, 0.2f, 0.2f, 1}}, {}, {{1, 0.52f, 0.48f, 0.1f, 0.1f, 1}}, {{0, 0.7f, 0.5f, 0.1f, 0.1f, 1}}};
  const std::vector<std::vector<Detection>> found = {
      {{0, 0.45f, 0.5f, 0.2f, 0.2f, 0.8f}}, {{0, 0.5f, 0.5f, 0.05f, 0.05f, 0.4f}}, {}, {{0, 0.7f, 0.5f, 0.2f, 0.1f, 0.9f}}};
  const PointScore s = score_point(found, truth, 0.5f, 0.5f);
  EXPECT_EQ(s.images, 4u);
  EXPECT_EQ(s.detected, 2u);
  EXPECT_EQ(s.truth, 2u);
  EXPECT_EQ(s.both, 1u);
  EXPECT_DOUBLE_EQ(s.precision(), 0.5);
  EXPECT_DOUBLE_EQ(s.recall(), 0.5);
  const PointScore none = score_point(std::vector<std::vector<Detection>>(2), std::vector<std::vector<Detection>>(2), 0.5f, 0.5f);
  EXPECT_TRUE(std::isnan(none.precision()));
  EXPECT_TRUE(std::isnan(none.recall()));
}

}  // namespace
}  // namespace pictor::ic
