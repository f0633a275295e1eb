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
  // Nothing detected: precision unknown (NaN), never 0 or 1.
  const auto none = score_detections(std::vector<std::vector<Detection>>(2), truth, 2);
  EXPECT_TRUE(std::isnan(none.precision));
  EXPECT_DOUBLE_EQ(none.recall, 0.0);
}

}  // namespace
}  // namespace pictor::ic
