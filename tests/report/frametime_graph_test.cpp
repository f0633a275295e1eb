// Tests of the frame-time graph files: PNG readable by cairo with the scene's size and colours,
// SVG with one rect per frame piece, errors that name the path.
#include "report/frametime_graph.h"

#include <cairo.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"
#include "core/files.h"
#include "core/tmpfs.h"
#include "report/graph_scene.h"

namespace pictor::report {
namespace {

namespace fs = std::filesystem;

constexpr double kFps120 = 1000.0 / 120;
constexpr double kFps60 = 1000.0 / 60;
constexpr double kFps15 = 1000.0 / 15;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("pictor-report-test-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// 30 s of 60 FPS with one 15 FPS frame and one 400 ms hitch: 4 rows at the default width.
analysis::FrameSeries sample_session() {
  analysis::FrameSeries s;
  s.source = "pictor";
  s.path = "sessions/demo & co/frames.csv";
  s.frame_ms.assign(1800, kFps60);
  s.frame_ms[300] = kFps15;
  s.frame_ms[900] = 400.0;
  return s;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1))
    ++n;
  return n;
}

uint32_t pixel(cairo_surface_t* img, int x, int y) {
  const unsigned char* data = cairo_image_surface_get_data(img);
  const int stride = cairo_image_surface_get_stride(img);
  return *reinterpret_cast<const uint32_t*>(data + y * stride + x * 4) & 0xffffffu;
}

TEST(FrametimePng, ReadsBackWithTheSceneSizeAndBarColours) {
  TempDir dir;
  const analysis::FrameSeries series = sample_session();
  const GraphScene scene = build_frametime_scene(series, {});
  const std::string path = dir.file("frametime.png");
  write_frametime_png(series, path);

  cairo_surface_t* img = cairo_image_surface_create_from_png(path.c_str());
  ASSERT_EQ(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
  EXPECT_EQ(cairo_image_surface_get_width(img), scene.width);
  EXPECT_EQ(cairo_image_surface_get_height(img), scene.height);
  EXPECT_EQ(scene.width, 16 + 64 + 1200 + 16);
  ASSERT_EQ(scene.row_baseline.size(), 4u);  // 30.4 s at 120 px/s = 3652 px over 1200 px rows

  // Frame 300 starts at 600 px and is 8 px wide, full height, red; frame 10 is 2 px of green.
  const int base0 = static_cast<int>(scene.row_baseline[0]);
  const int left = static_cast<int>(scene.plot_left);
  EXPECT_EQ(pixel(img, left + 603, base0 - 1), 0xff0000u);
  EXPECT_EQ(pixel(img, left + 603, base0 - 60), 0xff0000u);
  EXPECT_EQ(pixel(img, left + 20, base0 - 1), 0x00ff00u);
  EXPECT_EQ(pixel(img, left + 20, base0 - 10), 0x00ff00u);
  // Above a 60 FPS bar (23 px) is the panel, not green.
  EXPECT_NE(pixel(img, left + 20, base0 - 40), 0x00ff00u);
  cairo_surface_destroy(img);
}

TEST(FrametimePng, UnwritablePathIsAUsageErrorNamingIt) {
  const std::string path = "/nonexistent-pictor-dir/frametime.png";
  try {
    write_frametime_png(sample_session(), path);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
}

// A full disk is not the user's fault (exit 1, not 2), and leaves no part of an image.
TEST(FrametimePng, AFullDiskLeavesNoImageAndNamesTheDisk) {
  test::Tmpfs t("16k");
  PICTOR_SKIP_WITHOUT_TMPFS(t);
  t.fill("filler");
  const std::string path = (t.path() / "frametime.png").string();
  for (const std::string& p : {path, (t.path() / "frametime.svg").string()}) {
    try {
      if (p == path) write_frametime_png(sample_session(), p);
      else write_frametime_svg(sample_session(), p);
      ADD_FAILURE() << "a full disk must throw";
    } catch (const UsageError& e) {
      ADD_FAILURE() << "a full disk is not a usage error: " << e.what();
    } catch (const files::WriteError& e) {
      EXPECT_TRUE(e.disk_full());
      EXPECT_NE(std::string(e.what()).find("the disk holding " + t.path().string() + " is full"), std::string::npos)
          << e.what();
    }
    EXPECT_FALSE(fs::exists(p));
  }
  for (const auto& f : fs::directory_iterator(t.path())) EXPECT_EQ(f.path().filename(), "filler");
}

TEST(FrametimePng, TooTallForPngSuggestsSvg) {
  analysis::FrameSeries s;
  s.path = "long.csv";
  s.frame_ms.assign(60 * 60 * 60 * 2, kFps60);  // two hours at 60 FPS: 720 rows
  try {
    write_frametime_png(s, "/tmp/never-written.png");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(".svg"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists("/tmp/never-written.png"));
}

TEST(FrametimeSvg, OneRectPerFramePiece) {
  FrameGraphOptions o;
  o.row_width_px = 1000;
  analysis::FrameSeries s;
  s.path = "x.csv";
  s.frame_ms.assign(600, kFps60);  // 1200 px: frame 499 ends exactly at 1000, none split
  s.frame_ms.push_back(kFps15);    // 1200..1208
  const std::string svg = frametime_svg(s, o);
  const GraphScene scene = build_frametime_scene(s, o);
  EXPECT_EQ(count(svg, "<rect class=\"frame\""), 601u);
  EXPECT_EQ(scene.frame_rects, 601u);
  // background + one panel per row + the legend ramp + frames
  EXPECT_EQ(count(svg, "<rect "), 1u + 2u + 90u + 601u);
  EXPECT_EQ(count(svg, "fill=\"#ff0000\""), 1u);  // only the 15 FPS frame is fully red

  // Shift by one 120 FPS frame: the 60 FPS frame over the row end is cut into two rects.
  s.frame_ms.insert(s.frame_ms.begin(), kFps120);
  EXPECT_EQ(count(frametime_svg(s, o), "<rect class=\"frame\""), 603u);
}

TEST(FrametimeSvg, HeaderNamesSourceFramesAndAverageFps) {
  const std::string svg = frametime_svg(sample_session());
  EXPECT_NE(svg.find("sessions/demo &amp; co/frames.csv"), std::string::npos);
  EXPECT_NE(svg.find("1,801 frames"), std::string::npos);  // swaps: one more than intervals
  // 1800 intervals over 1798/60 + 1/15 + 0.4 s = 30.433 s -> 59.1 FPS.
  EXPECT_NE(svg.find("59.1 FPS average"), std::string::npos);
  for (const char* label : {"8.3 ms", "16.7 ms", "33.3 ms", "66.7 ms"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(FrametimeSvg, UnknownFramesAreReportedNotDrawn) {
  analysis::FrameSeries s;
  s.path = "gaps.csv";
  s.frame_ms = {kFps60, analysis::kUnknown, kFps60};
  const std::string svg = frametime_svg(s);
  EXPECT_EQ(count(svg, "<rect class=\"frame\""), 2u);
  EXPECT_NE(svg.find("1 frame time unknown, not drawn"), std::string::npos);
  EXPECT_NE(svg.find("average FPS unknown"), std::string::npos);
}

TEST(FrametimeSvg, EmptySeriesSaysSoInsteadOfInventingAnAverage) {
  analysis::FrameSeries s;
  s.path = "empty.csv";
  const std::string svg = frametime_svg(s);
  EXPECT_EQ(count(svg, "<rect class=\"frame\""), 0u);
  EXPECT_NE(svg.find("average FPS unknown"), std::string::npos);
}

TEST(FrametimeGraph, ExtensionPicksTheFormat) {
  TempDir dir;
  const analysis::FrameSeries s = sample_session();
  write_frametime_graph(s, dir.file("a.SVG"));
  std::ifstream in(dir.file("a.SVG"));
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), frametime_svg(s));

  write_frametime_graph(s, dir.file("b.png"));
  std::ifstream png(dir.file("b.png"), std::ios::binary);
  char magic[8] = {};
  png.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");

  EXPECT_EQ(graph_format_for("out/x.PNG"), GraphFormat::Png);
  EXPECT_EQ(graph_format_for("x.svg"), GraphFormat::Svg);
  EXPECT_THROW(graph_format_for("dir.svg/x"), UsageError);
  EXPECT_THROW(write_frametime_graph(s, dir.file("c.jpg")), UsageError);
  EXPECT_THROW(write_frametime_graph(s, dir.file("noext")), UsageError);
  EXPECT_FALSE(fs::exists(dir.file("c.jpg")));
}

TEST(FrametimeGraph, SampledLogIsRefusedRatherThanDrawnShort) {
  analysis::FrameSeries s = sample_session();
  s.sampled = true;
  EXPECT_THROW(frametime_svg(s), UsageError);
}

TEST(FrametimeGraph, BadOptionsAreUsageErrors) {
  FrameGraphOptions o;
  o.slow_ms = 5.0;
  EXPECT_THROW(frametime_svg(sample_session(), o), UsageError);
}

}  // namespace
}  // namespace pictor::report
