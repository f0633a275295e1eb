// Layout of the tag marker: where it sits per corner, that its clears paint exactly the encoded
// cells, stay on the window's 8 x 8 grid from the corner, and stay few.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/error.h"
#include "tag/marker_layout.h"

namespace pictor::tag {
namespace {

constexpr Corner kCorners[] = {Corner::bottom_left, Corner::bottom_right, Corner::top_left,
                               Corner::top_right};

TEST(MarkerLayout, FitsTheAreaBudget) {
  EXPECT_EQ(kMarkerWidth, 64);
  EXPECT_EQ(kMarkerHeight, 32);
  EXPECT_LE(kMarkerWidth * kMarkerHeight, 1920 * 1080 / 1000);  // 0.1 % of 1080p = 2073 px
}

TEST(MarkerLayout, CornerNamesRoundTrip) {
  for (Corner c : kCorners) EXPECT_EQ(parse_corner(corner_name(c)), c);
  EXPECT_EQ(kDefaultCorner, Corner::bottom_left);
  try {
    parse_corner("middle");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'middle'"), std::string::npos) << e.what();
  }
}

TEST(MarkerLayout, SitsInTheChosenCorner) {
  const MarkerPayload p{0x1234, 0x56};
  const int w = 301, h = 157;  // odd sizes: the grid counts from the corner, not from (0, 0)
  struct Expect {
    Corner corner;
    int gl_x, gl_y;    // background rect, GL coordinates
    int img_x, img_y;  // top-left in the captured image
  };
  for (const Expect& e : {Expect{Corner::bottom_left, 0, 0, 0, h - 32},
                          Expect{Corner::bottom_right, w - 64, 0, w - 64, h - 32},
                          Expect{Corner::top_left, 0, h - 32, 0, 0},
                          Expect{Corner::top_right, w - 64, h - 32, w - 64, 0}}) {
    const MarkerLayout m = layout(p, w, h, e.corner);
    ASSERT_GE(m.count, 1);
    EXPECT_EQ(m.rects[0].x, e.gl_x) << corner_name(e.corner);
    EXPECT_EQ(m.rects[0].y, e.gl_y) << corner_name(e.corner);
    EXPECT_EQ(m.rects[0].w, kMarkerWidth);
    EXPECT_EQ(m.rects[0].h, kMarkerHeight);
    EXPECT_EQ(marker_origin_in_image(w, h, e.corner), (PixelPoint{e.img_x, e.img_y}));
  }
}

TEST(MarkerLayout, WindowSmallerThanTheMarkerGetsNoClears) {
  EXPECT_EQ(layout(MarkerPayload{1, 2}, 63, 100).count, 0);
  EXPECT_EQ(layout(MarkerPayload{1, 2}, 100, 31).count, 0);
  EXPECT_EQ(layout(MarkerPayload{1, 2}, 0, 0).count, 0);
  EXPECT_GT(layout(MarkerPayload{1, 2}, 64, 32).count, 0);
}

// Checks one layout against the word it must paint and the rules every clear follows.
void expect_valid(const MarkerPayload& p, int w, int h, Corner corner) {
  const MarkerLayout m = layout(p, w, h, corner);
  ASSERT_GE(m.count, 1);
  ASSERT_LE(m.count, MarkerLayout::kMaxRects);
  ASSERT_EQ(layout_word(m, w, h, corner), encode_word(p))
      << "tag " << p.tag << " frame " << p.frame_lo << " " << corner_name(corner);
  const MarkerRect& bg = m.rects[0];
  for (int i = 0; i < m.count; ++i) {
    const MarkerRect& r = m.rects[i];
    ASSERT_GT(r.w, 0);
    ASSERT_GT(r.h, 0);
    ASSERT_EQ((r.x - bg.x) % kCellPx, 0);
    ASSERT_EQ((r.y - bg.y) % kCellPx, 0);
    ASSERT_EQ(r.w % kCellPx, 0);
    ASSERT_EQ(r.h % kCellPx, 0);
    ASSERT_GE(r.x, bg.x);
    ASSERT_GE(r.y, bg.y);
    ASSERT_LE(r.x + r.w, bg.x + bg.w);
    ASSERT_LE(r.y + r.h, bg.y + bg.h);
    if (i > 0) {
      ASSERT_NE(r.white, bg.white) << "only minority runs follow the background";
    }
  }
}

TEST(MarkerLayout, EveryPayloadPaintsItsWord) {
  for (std::uint32_t tag = 0; tag <= kTagMask; ++tag) {
    for (std::uint32_t frame = 0; frame <= kFrameMask; ++frame) {
      const MarkerPayload p{tag, frame};
      const MarkerLayout m = layout(p, 640, 480, Corner::bottom_left);
      if (layout_word(m, 640, 480, Corner::bottom_left) != encode_word(p)) {
        FAIL() << "tag " << tag << " frame " << frame;
      }
    }
  }
}

TEST(MarkerLayout, EveryTagPaintsItsWordInEveryCorner) {
  std::mt19937 rng(5);
  for (std::uint32_t tag = 0; tag <= kTagMask; ++tag) {
    const MarkerPayload p{tag, static_cast<std::uint32_t>(rng()) & kFrameMask};
    for (Corner c : kCorners) {
      expect_valid(p, 640, 480, c);
      expect_valid(p, 1001, 77, c);
      expect_valid(p, 64, 32, c);
    }
  }
}

TEST(MarkerLayout, MergesRunsIntoFewClears) {
  // Worst case is 1 + 16; the average over all tags shows what the interposer issues per frame.
  long total = 0;
  int worst = 0;
  for (std::uint32_t tag = 0; tag <= kTagMask; ++tag) {
    for (std::uint32_t frame = 0; frame <= kFrameMask; ++frame) {
      const int n = layout(MarkerPayload{tag, frame}, 1920, 1080).count;
      total += n;
      worst = std::max(worst, n);
    }
  }
  const double mean = static_cast<double>(total) / ((kTagMask + 1) * (kFrameMask + 1));
  RecordProperty("mean_clears", std::to_string(mean));
  RecordProperty("worst_clears", worst);
  EXPECT_LE(worst, MarkerLayout::kMaxRects);
  EXPECT_LT(mean, 11.0);
}

}  // namespace
}  // namespace pictor::tag
