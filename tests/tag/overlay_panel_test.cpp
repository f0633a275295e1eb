// The overlay panel's CPU rasteriser (tag/overlay_panel.h): frame history and FPS, the graph's
// fixed log2 scale and bar placement, the bitmap text, placement beside the marker and clipping
// in small windows.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "tag/overlay_panel.h"

namespace pictor::tag {
namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::uint8_t kBg[3] = {0x14, 0x16, 0x1b};
constexpr std::uint8_t kText[3] = {0xe8, 0xea, 0xee};

bool is(const std::uint8_t* p, const std::uint8_t c[3]) { return p[0] == c[0] && p[1] == c[1] && p[2] == c[2]; }

// Frames every period_ns for span_ns, starting at t0.
void fill(FrameHistory& h, std::int64_t period_ns, std::int64_t span_ns, std::int64_t t0 = 1'000'000'000) {
  for (std::int64_t t = t0; t <= t0 + span_ns; t += period_ns) h.push(t);
}

// Height of the bar in graph column x (counted from the graph's left), 0 when empty.
int column_height(const PanelImage& img, const GraphBox& g, int x) {
  int h = 0;
  for (int y = g.y + g.height - 1; y >= g.y; --y) {
    if (is(img.at(g.x + x, y), kBg)) break;
    ++h;
  }
  return h;
}

TEST(FrameHistory, FpsOfTheLastSecondOrUnknown) {
  FrameHistory h;
  EXPECT_LT(h.fps_last_second(), 0) << "no frame: unknown";
  h.push(5 * kMs);
  EXPECT_LT(h.fps_last_second(), 0) << "one frame has no interval";
  FrameHistory steady;
  fill(steady, 16'666'667, 3'000'000'000);
  EXPECT_NEAR(steady.fps_last_second(), 60.0, 0.05);
  // A 1.5 s stall: the last second holds one frame only.
  steady.push(steady.at_age(0) + 1'500 * kMs);
  EXPECT_LT(steady.fps_last_second(), 0);
}

TEST(FrameHistory, KeepsTheNewestFramesInOrder) {
  FrameHistory h;
  for (int i = 0; i < FrameHistory::kCapacity + 10; ++i) h.push(i);
  EXPECT_EQ(h.at_age(0), FrameHistory::kCapacity + 9);
  EXPECT_EQ(h.at_age(FrameHistory::kCapacity - 1), 10);
}

TEST(PanelGraph, FixedLog2ScaleWithTheArticlesMilestones) {
  const int max = 64;
  EXPECT_EQ(bar_height_px(0.0, max), kGraphMinBarPx);
  EXPECT_EQ(bar_height_px(kFastMs, max), kGraphMinBarPx) << "120 FPS: minimum height";
  EXPECT_EQ(bar_height_px(1000.0 / 60.0, max), 2 + 62 / 3 + 1) << "60 FPS: a third of the way (22.67 -> 23)";
  EXPECT_EQ(bar_height_px(1000.0 / 30.0, max), 43) << "30 FPS: two thirds (43.33 -> 43)";
  EXPECT_EQ(bar_height_px(kSlowMs, max), max);
  EXPECT_EQ(bar_height_px(5000.0, max), max) << "longer than 15 FPS: clamped";
  EXPECT_EQ(bar_height_px(1000.0 / 60.0, 14), 6) << "the same fraction of a smaller graph";
}

TEST(PanelGraph, SteadyFramesFillTheGraphAtTheirHeightAndAHitchIsWideAndTall) {
  auto img = std::make_unique<PanelImage>();
  FrameHistory h;
  fill(h, 2 * kColumnNs, 3'000'000'000);  // 60 FPS: 2 columns a frame
  h.push(h.at_age(0) + 12 * kColumnNs);    // a 100 ms hitch: 12 columns, full height
  h.push(h.at_age(0) + 2 * kColumnNs);     // one more steady frame at the right edge
  rasterise_panel(h, {60.0, -1}, kPanelWidth, kPanelHeight, *img);
  const GraphBox g = graph_box(kPanelWidth, kPanelHeight);
  ASSERT_EQ(g.height, 64);
  ASSERT_GT(g.width, 200);
  const int steady = bar_height_px(1000.0 / 60.0, g.height);
  // Right edge: the last frame (2 px), then the hitch's 12 px, then steady frames to the left end.
  EXPECT_EQ(column_height(*img, g, g.width - 1), steady);
  EXPECT_EQ(column_height(*img, g, g.width - 2), steady);
  EXPECT_EQ(column_height(*img, g, g.width - 3), g.height);
  EXPECT_EQ(column_height(*img, g, g.width - 14), g.height);
  EXPECT_EQ(column_height(*img, g, g.width - 15), steady);
  EXPECT_EQ(column_height(*img, g, 0), steady) << "3 s of frames cover the ~1.9 s graph";
  // The hitch is red, a 60 FPS bar green (the article's gradient); guide lines cross at 16.7 ms.
  const std::uint8_t* red = img->at(g.x + g.width - 8, g.y + g.height - 1);
  EXPECT_EQ(red[0], 255);
  EXPECT_EQ(red[1], 0);
  const std::uint8_t* green = img->at(g.x + 10, g.y + g.height - 1);
  EXPECT_EQ(green[1], 255);
  EXPECT_LT(green[0], 40);
  const std::uint8_t* guide = img->at(g.x + 10, g.y + g.height - steady);
  EXPECT_NE(guide[0], green[0]) << "the 16.7 ms guide line lies on the top row of a 60 FPS bar";
}

TEST(PanelGraph, FewFramesLeaveTheLeftEmpty) {
  auto img = std::make_unique<PanelImage>();
  FrameHistory h;
  fill(h, kColumnNs, 100'000'000);  // 0.1 s at 120 FPS: 12 frames of 1 px
  rasterise_panel(h, {}, kPanelWidth, kPanelHeight, *img);
  const GraphBox g = graph_box(kPanelWidth, kPanelHeight);
  EXPECT_EQ(column_height(*img, g, g.width - 1), kGraphMinBarPx);
  EXPECT_EQ(column_height(*img, g, g.width - 12), kGraphMinBarPx);
  EXPECT_EQ(column_height(*img, g, g.width - 14), 0);
  EXPECT_EQ(column_height(*img, g, 0), 0);
}

TEST(PanelGraph, ThousandsOfFramesASecondStillFillTheGraph) {
  // 2 000 FPS: the ring holds 0.26 s of frames, the columns keep ~2.1 s.
  auto img = std::make_unique<PanelImage>();
  FrameHistory h;
  fill(h, 500'000, 3'000'000'000);
  rasterise_panel(h, {h.fps_last_second(), -1}, kPanelWidth, kPanelHeight, *img);
  EXPECT_NEAR(h.fps_last_second(), 2000.0, 1.0);
  const GraphBox g = graph_box(kPanelWidth, kPanelHeight);
  EXPECT_EQ(column_height(*img, g, 0), kGraphMinBarPx);
  EXPECT_EQ(column_height(*img, g, g.width - 1), kGraphMinBarPx);
}

TEST(PanelGraph, ALongStallAndAClockStepBackAreBounded) {
  FrameHistory h;
  fill(h, 2 * kColumnNs, 1'000'000'000);
  h.push(h.at_age(0) + 3600LL * 1'000'000'000);  // an hour without a frame: only 256 columns touched
  EXPECT_NEAR(h.column_ms(0), 3'600'000.0, 1.0);
  EXPECT_NEAR(h.column_ms(FrameHistory::kColumns - 1), 3'600'000.0, 1.0);
  h.push(h.at_age(0) - 5 * kMs);  // backwards: the graph restarts from this frame
  EXPECT_LT(h.column_ms(0), 0);
  h.push(h.at_age(0) + 2 * kColumnNs);
  EXPECT_NEAR(h.column_ms(0), 2 * kColumnNs * 1e-6, 1e-9);
  EXPECT_NEAR(h.column_ms(1), 2 * kColumnNs * 1e-6, 1e-9);
  EXPECT_LT(h.column_ms(2), 0) << "nothing from before the restart";
}

TEST(PanelText, GlyphsAndFigures) {
  EXPECT_EQ(glyph_row('F', 0), 0x1F);
  EXPECT_EQ(glyph_row('-', 3), 0x1F);
  EXPECT_EQ(glyph_row('z', 3), 0) << "a character the font lacks is blank";
  auto img = std::make_unique<PanelImage>();
  FrameHistory h;
  rasterise_panel(h, {59.9, -1}, kPanelWidth, kPanelHeight, *img);
  // "FPS 59.9  IN>PRESENT -": the F's top bar at (3..7, 3), the '-' of the unknown latency.
  for (int x = 3; x < 8; ++x) EXPECT_TRUE(is(img->at(x, 3), kText)) << x;
  EXPECT_TRUE(is(img->at(8, 3), kBg));
  const int dash = 3 + static_cast<int>(std::strlen("FPS 59.9  IN>PRESENT ")) * kGlyphAdvance;
  for (int x = dash; x < dash + 5; ++x) EXPECT_TRUE(is(img->at(x, 6), kText)) << x;
  EXPECT_TRUE(is(img->at(dash, 3), kBg)) << "a dash, not a digit";
  // A known latency: "12.3 MS" where the dash was; its '1' has a vertical stroke in column 2.
  rasterise_panel(h, {59.9, 12.34}, kPanelWidth, kPanelHeight, *img);
  EXPECT_TRUE(is(img->at(dash + 2, 3), kText));
  EXPECT_TRUE(is(img->at(dash + 2, 8), kText));
}

TEST(PanelPlacement, NeverReachesTheMarkersCorner) {
  const PanelPlace bl = panel_place(Corner::bottom_left, 640, 480);
  EXPECT_EQ(bl.x, 0);
  EXPECT_EQ(bl.y, kMarkerHeight + kCellPx);
  EXPECT_EQ(bl.avail_h, 480 - kMarkerHeight - kCellPx);
  const PanelPlace br = panel_place(Corner::bottom_right, 640, 480);
  EXPECT_EQ(br.y, kMarkerHeight + kCellPx);
  const PanelPlace tl = panel_place(Corner::top_left, 640, 480);
  EXPECT_EQ(tl.y, 0);
  EXPECT_EQ(tl.y + tl.avail_h, 480 - kMarkerHeight - kCellPx) << "stops a cell below the marker";
  EXPECT_EQ(panel_place(Corner::bottom_left, 640, 20).avail_h, 0);
}

TEST(PanelPlacement, SmallWindowsShrinkThePanelOrDropIt) {
  int w = 0, h = 0;
  ASSERT_TRUE(panel_size(1280, 720, w, h));
  EXPECT_EQ(w, kPanelWidth);
  EXPECT_EQ(h, kPanelHeight);
  ASSERT_TRUE(panel_size(201, 30, w, h));
  EXPECT_EQ(w, 200) << "even widths only (rows of a multiple of 8 bytes)";
  EXPECT_EQ(h, 30);
  EXPECT_FALSE(panel_size(kPanelMinWidth - 1, 80, w, h));
  EXPECT_FALSE(panel_size(200, kPanelMinHeight - 1, w, h));
  // 30 px high: a 14 px graph; 100 px wide: no axis labels.
  const GraphBox small = graph_box(100, 30);
  EXPECT_EQ(small.height, 14);
  EXPECT_EQ(small.x, 3);
  EXPECT_EQ(graph_box(200, 20).height, 0) << "too low for a graph: text only";
}

TEST(PanelPlacement, ASmallPanelIsDrawnWithinItsSizeAndItsBarsScale) {
  auto img = std::make_unique<PanelImage>();
  std::memset(img->rgba, 0xAB, sizeof img->rgba);
  FrameHistory h;
  fill(h, 33'333'333, 2'000'000'000);  // 30 FPS
  rasterise_panel(h, {30.0, 50.0}, 100, 30, *img);
  EXPECT_EQ(img->width, 100);
  EXPECT_EQ(img->height, 30);
  for (std::size_t i = 100 * 30 * 4; i < sizeof img->rgba; ++i)
    ASSERT_EQ(img->rgba[i], 0xAB) << "written outside the 100 x 30 panel at byte " << i;
  const GraphBox g = graph_box(100, 30);
  EXPECT_EQ(column_height(*img, g, g.width - 1), bar_height_px(1000.0 / 30.0, g.height));
  // Text only: the text is cut at the panel's right edge, nothing written past it.
  std::memset(img->rgba, 0xAB, sizeof img->rgba);
  rasterise_panel(h, {30.0, 50.0}, 64, 13, *img);
  EXPECT_TRUE(is(img->at(3, 3), kText));
  for (std::size_t i = 64 * 13 * 4; i < sizeof img->rgba; ++i)
    ASSERT_EQ(img->rgba[i], 0xAB) << "written outside the 64 x 13 panel at byte " << i;
}

}  // namespace
}  // namespace pictor::tag

namespace pictor::tag {
namespace {

TEST(OverlayKey, ModifiersAndFunctionKeys) {
  OverlayKey k;
  EXPECT_EQ(k.mods, 0x1u);
  EXPECT_EQ(k.keysym, 0xffc9u) << "default Shift+F12";
  ASSERT_TRUE(parse_overlay_key("Shift+F12", k));
  EXPECT_EQ(k.mods, 0x1u);
  EXPECT_EQ(k.keysym, 0xffc9u);
  EXPECT_EQ(k.keycode, 96u);
  ASSERT_TRUE(parse_overlay_key("ctrl+ALT+f1", k));
  EXPECT_EQ(k.mods, 0x4u | 0x8u);
  EXPECT_EQ(k.keysym, 0xffbeu);
  EXPECT_EQ(k.keycode, 67u);
  ASSERT_TRUE(parse_overlay_key("Super+F11", k));
  EXPECT_EQ(k.mods, 0x40u);
  EXPECT_EQ(k.keycode, 95u);
  ASSERT_TRUE(parse_overlay_key("F9", k));
  EXPECT_EQ(k.mods, 0u);
  const OverlayKey before = k;
  for (const char* bad : {"", "F0", "F13", "Shift+", "Hyper+F1", "F1x", "Shift+A", "+F1", "F 1", "F+1"}) {
    EXPECT_FALSE(parse_overlay_key(bad, k)) << bad;
    EXPECT_EQ(k.keysym, before.keysym) << bad;
    EXPECT_EQ(k.mods, before.mods) << bad;
  }
}

}  // namespace
}  // namespace pictor::tag
