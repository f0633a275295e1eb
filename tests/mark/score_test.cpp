// Test scores from constructed sample files (tests/mark/data, written by a deterministic generator)
// against the numbers MotionMark 1.3.1's own scoring code gives for the same files under Node.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.h"
#include "mark/samples_json.h"
#include "mark/score.h"

namespace pictor::mark {
namespace {

std::string data(const char* name) { return std::string(PICTOR_MARK_TEST_DATA) + "/" + name; }

void expect_close(double actual, double expected, const std::string& what) {
  EXPECT_NEAR(actual, expected, std::fabs(expected) * 1e-9) << what;
}

struct Golden {
  const char* file;
  double score, lower, upper, change_point, s2, t2, error;
  long n1, n2;
};

// score, lower, upper and the trimmed regression printed by MotionMark's code (see docs/mark.md).
const Golden kGolden[] = {
    {"knee.json", 999.9999999999063, 999.9999999998732, 999.9999999999316, 999.9999999999097,
     -3.3333333333280724, 0.01999999999999655, -3.2741809263825417e-10, 94, 96},
    {"jump.json", 560.4360046096792, 459.35564691712676, 646.1992958335967, 1040, 33.333333333333336, 0,
     1111.111111110571, 99, 91},
    {"flat.json", 471, 197, 479, 478.48396748316134, 16.666666667575907, -1.9002494716190303e-12,
     -6.966729582656288e-10, 465, 10},
    {"ramps.json", 877.3528009016713, 861.3781651614586, 888.8022201631806, 876.8561523825334,
     -8.81619974572202, 0.029061626976270155, 8006.199357977894, 591, 654},
    {"fps120.json", 400.2051345602118, 399.10359932599073, 401.2197199317438, 399.96130995398437,
     -1.665441432122862, 0.024999354979126746, 117.6430279472188, 431, 937},
};

TEST(Score, MatchesMotionMarkOnConstructedFiles) {
  for (const auto& g : kGolden) {
    const auto set = read_sample_set(data(g.file));
    const auto s = score_samples(set.samples, set.fps);
    const std::string f = g.file;
    expect_close(s.score, g.score, f + " score");
    expect_close(s.lower, g.lower, f + " lower");
    expect_close(s.upper, g.upper, f + " upper");
    expect_close(s.regression.change_point, g.change_point, f + " changePoint");
    expect_close(s.regression.s2, g.s2, f + " s2");
    EXPECT_NEAR(s.regression.t2, g.t2, std::fabs(g.t2) * 1e-9 + 1e-15) << f;
    expect_close(*s.regression.error, g.error, f + " error");
    EXPECT_EQ(*s.regression.n1, g.n1) << f;
    EXPECT_EQ(*s.regression.n2, g.n2) << f;
  }
}

TEST(Score, SingleAnimationRow) {
  const auto set = read_sample_set(data("single.json"));
  const auto s = score_samples(set.samples, set.fps);
  EXPECT_EQ(s.score, 5);
  EXPECT_EQ(s.lower, 5);
  EXPECT_EQ(s.upper, 5);
  EXPECT_FALSE(s.regression.n1.has_value());
}

TEST(Score, BootstrapIsDeterministicAndOrderFree) {
  auto set = read_sample_set(data("ramps.json"));
  const auto a = score_samples(set.samples, set.fps);
  const auto b = score_samples(set.samples, set.fps);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.lower, b.lower);
  EXPECT_EQ(a.upper, b.upper);
  // Pre-sorted input (stable by complexity) scores the same as time-ordered input.
  std::stable_sort(set.samples.begin(), set.samples.end(),
                   [](const Sample& l, const Sample& r) { return l.complexity < r.complexity; });
  const auto c = score_samples(set.samples, set.fps);
  EXPECT_EQ(a.score, c.score);
  EXPECT_EQ(a.upper, c.upper);
}

TEST(Score, FlatDataReportsNegativeSlopes) {
  const auto set = read_sample_set(data("flat.json"));
  const auto s = score_samples(set.samples, set.fps);
  EXPECT_GT(s.negative_slope_share, 0.0);
  const auto knee = read_sample_set(data("knee.json"));
  EXPECT_EQ(score_samples(knee.samples, knee.fps).negative_slope_share, 0.0);
}

TEST(Suite, GeometricMeanOfScoresAndBounds) {
  TestScore a, b;
  a.score = 100, a.lower = 90, a.upper = 110;
  b.score = 400, b.lower = 360, b.upper = 440;
  const TestScore tests[] = {a, b};
  const auto s = suite_score(tests);
  EXPECT_DOUBLE_EQ(s.score, 200);
  EXPECT_DOUBLE_EQ(s.lower, 180);
  EXPECT_DOUBLE_EQ(s.upper, 220);
  EXPECT_NEAR(s.spread, 0.1, 1e-12);
  EXPECT_EQ(format_suite_score(s, 60), "200.00 @ 60fps ±10.00 %");
}

TEST(SampleSet, BadInputNamesTheCause) {
  const auto message = [](const std::string& text) {
    try {
      parse_sample_set(text, "in.json");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("{\"fps\": 60,\n \"samples\": [}"), message("{\"fps\": 60,\n \"samples\": [}"));
  EXPECT_NE(message("{\"fps\": 60,\n \"samples\": [}").find("in.json:2: malformed JSON"), std::string::npos);
  EXPECT_NE(message("{\"samples\": [[\"a\", 0, 1, 16], [\"x\", 1, 1, 16]]}").find("samples[1]"),
            std::string::npos);
  EXPECT_NE(message("{\"samples\": [[\"a\", 0, 1]]}").find("samples[0]"), std::string::npos);
  EXPECT_NE(message("{\"samples\": []}").find("empty"), std::string::npos);
  EXPECT_NE(message("[1]").find("expected a JSON object"), std::string::npos);
  EXPECT_EQ(parse_sample_set("{\"samples\": [[\"a\", 0, 1, 16]]}", "x").fps, 60);
}

}  // namespace
}  // namespace pictor::mark
