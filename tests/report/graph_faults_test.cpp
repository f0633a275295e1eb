// The graph of a session with stalls (a band of its own colour with its length, the one after the
// last frame included) and of absurd spans (refused before any layout, in bounded memory).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>

#include "core/error.h"
#include "report/frametime_graph.h"
#include "report/graph_scene.h"

namespace pictor::report {
namespace {

constexpr double kFps60 = 1000.0 / 60;

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

// 60 FPS with swap times: `seconds` of frames, then (optionally) a session end `tail_s` later.
analysis::FrameSeries timed(double seconds, double tail_s) {
  analysis::FrameSeries s;
  s.source = "pictor";
  s.path = "frames.csv";
  const int64_t t0 = 1'000'000'000;
  const auto n = static_cast<std::size_t>(seconds * 60);
  for (std::size_t i = 0; i <= n; ++i) {
    s.swap_ns.push_back(t0 + static_cast<int64_t>(static_cast<double>(i) * kFps60 * 1e6));
    if (i > 0) s.frame_ms.push_back(static_cast<double>(s.swap_ns[i] - s.swap_ns[i - 1]) / 1e6);
  }
  if (tail_s > 0) s.session_end_ns = s.swap_ns.back() + static_cast<int64_t>(tail_s * 1e9);
  return s;
}

bool has_text(const GraphScene& scene, const std::string& needle) {
  for (const auto& t : scene.texts)
    if (t.text.find(needle) != std::string::npos) return true;
  return false;
}

bool has_exact_text(const GraphScene& scene, const std::string& text) {
  for (const auto& t : scene.texts)
    if (t.text == text) return true;
  return false;
}

TEST(GraphStalls, AStallIsABandWithItsLength) {
  analysis::FrameSeries s = timed(2, 0);
  s.frame_ms[60] = 2500.0;  // 2.5 s without a frame inside
  s.swap_ns.clear();        // frame times alone
  const GraphScene scene = build_frametime_scene(s, {});
  std::size_t stalls = 0;
  for (const auto& r : scene.rects)
    if (r.role == RectRole::Stall) {
      ++stalls;
      EXPECT_EQ(r.width, 300.0);  // 2.5 s at 120 px/s
    }
  EXPECT_EQ(stalls, 1u);
  EXPECT_TRUE(has_text(scene, "stall 2.5 s"));
  EXPECT_TRUE(has_text(scene, "stall: 1 s or more without a frame"));  // the legend, only when there is one
  EXPECT_TRUE(has_text(scene, "1 stall (2.5 s without a frame)"));
  EXPECT_EQ(count(frametime_svg(s, {}), "<rect class=\"stall\""), 1u);
  EXPECT_FALSE(has_text(build_frametime_scene(timed(2, 0), {}), "stall"));
}

TEST(GraphStalls, TheTimeAfterTheLastFrameIsDrawnToTheSessionEnd) {
  // 1.5 s of frames, then 4 s without one until the session ended: the graph runs to the end.
  const analysis::FrameSeries s = timed(1.5, 4.0);
  const GraphScene scene = build_frametime_scene(s, {});
  double stall_px = 0;
  for (const auto& r : scene.rects)
    if (r.role == RectRole::Stall) stall_px += r.width;
  EXPECT_EQ(stall_px, 480.0);  // 4 s at 120 px/s
  EXPECT_TRUE(has_text(scene, "no frame for the last 4.0 s"));
  EXPECT_TRUE(has_exact_text(scene, "5 s"));  // the time axis reaches the end (5.5 s)
  EXPECT_FALSE(has_exact_text(build_frametime_scene(timed(1.5, 0), {}), "5 s"));
  const GraphExtent e = measure_frametime_graph(s, {});
  EXPECT_NEAR(e.span_s, 5.5, 0.02);
  // A short tail is no stall and adds nothing.
  EXPECT_NEAR(measure_frametime_graph(timed(1.5, 0.5), {}).span_s, 1.5, 0.02);
}

// Peak resident memory of this process so far, in MiB.
double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

TEST(GraphSize, AnAbsurdSpanIsRefusedBeforeAnyLayout) {
  // Frames at 0 and INT64_MAX ns: one frame of 292 years. It used to take 11 GB and never end.
  analysis::FrameSeries s;
  s.source = "pictor";
  s.path = "huge.csv";
  s.swap_ns = {0, std::numeric_limits<int64_t>::max()};
  s.frame_ms = {static_cast<double>(std::numeric_limits<int64_t>::max()) / 1e6};
  // A year of frames at 1 FPS: 31.5 M frame times (250 MB), refused from their sum alone.
  analysis::FrameSeries year;
  year.frame_ms.assign(365 * 24 * 3600, 1000.0);
  const double rss_before = peak_rss_mib();
  const auto t0 = std::chrono::steady_clock::now();
  for (const char* out : {"/tmp/pictor-never-written.png", "/tmp/pictor-never-written.svg"}) {
    try {
      write_frametime_graph(s, out);
      FAIL() << "a 292-year graph was drawn";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("292 years"), std::string::npos) << what;
      EXPECT_NE(what.find(out), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  EXPECT_THROW(write_frametime_graph(year, "/tmp/pictor-never-written.svg"), UsageError);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 5.0);
  // Nothing in proportion to the span (or even to the frames) is allocated to refuse them.
  EXPECT_LT(peak_rss_mib() - rss_before, 50.0);
}

TEST(GraphSize, ALongSessionGetsWiderPngRowsRatherThanNoGraph) {
  analysis::FrameSeries s;
  s.frame_ms.assign(60 * 60 * 60 * 2, kFps60);  // two hours: 720 rows at 1200 px, too tall for PNG
  EXPECT_TRUE(graph_too_tall(measure_frametime_graph(s, {}), {}, kMaxPngSidePx, true).has_value());
  const auto fit = png_options_that_fit(s);
  ASSERT_TRUE(fit.has_value());
  EXPECT_GT(fit->row_width_px, 1200);
  EXPECT_FALSE(graph_too_tall(measure_frametime_graph(s, *fit), *fit, kMaxPngSidePx, true).has_value());
  analysis::FrameSeries day;
  day.frame_ms.assign(24 * 3600, 1000.0);
  EXPECT_FALSE(png_options_that_fit(day).has_value());
}

}  // namespace
}  // namespace pictor::report
