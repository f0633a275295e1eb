// Test scores of the sample sets in tests/mark/data against data/expected.json: what MotionMark
// 1.3.1's own, unmodified scoring code says for the same files under Node, written by
// tests/mark/motionmark_reference/generate.js (see its README; node is not needed to run this).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "mark/samples_json.h"
#include "mark/score.h"

namespace pictor::mark {
namespace {

using nlohmann::json;

std::string data(const std::string& name) { return std::string(PICTOR_MARK_TEST_DATA) + "/" + name; }

json expected() {
  std::ifstream in(data("expected.json"));
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

// |actual − expected| / |expected|, 0 when both are equal (also both zero).
double relative_error(double actual, double expected) {
  if (actual == expected) return 0;
  return std::fabs(actual - expected) / std::fabs(expected);
}

constexpr double kTolerance = 1e-9;

TEST(Score, MatchesMotionMarkOnEverySet) {
  const json want = expected();
  ASSERT_EQ(want["motionmark"]["release"], "1.3.1");
  double worst = 0;
  for (const auto& e : want["sets"]) {
    const std::string file = e["file"];
    const auto set = read_sample_set(data(file));
    if (e.contains("error")) {
      // MotionMark fails on these: Pictor refuses them, naming the resample MotionMark failed in.
      const long at = e["failedResample"];
      try {
        score_samples(set.samples, set.fps);
        ADD_FAILURE() << file << ": scored, but MotionMark fails (" << e["error"] << ")";
      } catch (const UsageError& error) {
        const std::string message = error.what();
        const std::string cause =
            at > 0 ? "bootstrap resample " + std::to_string(at) + " of 2500" : std::string("no animation rows to fit");
        EXPECT_NE(message.find(cause), std::string::npos) << file << ": " << message;
      }
      continue;
    }
    const auto s = score_samples(set.samples, set.fps);
    double set_worst = 0;
    const auto close = [&](double actual, const json& expected_value, const std::string& what) {
      ASSERT_TRUE(expected_value.is_number()) << file << " " << what;
      const double rel = relative_error(actual, expected_value.get<double>());
      set_worst = std::max(set_worst, rel);
      EXPECT_LE(rel, kTolerance) << file << " " << what << ": " << actual << " vs " << expected_value;
    };
    close(s.score, e["score"], "score");
    close(s.lower, e["lower"], "lower");
    close(s.upper, e["upper"], "upper");
    worst = std::max(worst, set_worst);

    const json& r = e["regression"];
    close(s.regression.change_point, r["changePoint"], "changePoint");
    close(s.regression.s1, r["s1"], "s1");
    close(s.regression.s2, r["s2"], "s2");
    // t1 is fixed at 0; t2 and the error may be rounding noise around 0 on noise-free data.
    EXPECT_EQ(s.regression.t1, r["t1"].get<double>()) << file;
    EXPECT_NEAR(s.regression.t2, r["t2"].get<double>(), std::fabs(r["t2"].get<double>()) * kTolerance + 1e-15) << file;
    if (r["n1"].is_null()) {
      EXPECT_FALSE(s.regression.n1.has_value()) << file;
      EXPECT_FALSE(s.regression.error.has_value()) << file;
    } else {
      ASSERT_TRUE(s.regression.n1 && s.regression.n2 && s.regression.error) << file;
      EXPECT_EQ(*s.regression.n1, r["n1"].get<long>()) << file;
      EXPECT_EQ(*s.regression.n2, r["n2"].get<long>()) << file;
      EXPECT_NEAR(*s.regression.error, r["error"].get<double>(),
                  std::fabs(r["error"].get<double>()) * kTolerance + 1e-9) << file;
    }
    std::printf("%-24s score %.17g [%.17g, %.17g]  worst relative error %.3g\n", file.c_str(), s.score, s.lower,
                s.upper, set_worst);
  }
  std::printf("worst relative error over all sets (score and bounds): %.3g\n", worst);
}

// Every file in tests/mark/data has MotionMark's expectation, and the sets that matter are there:
// an expected.json that lost sets cannot pass unnoticed.
TEST(Score, EverySetHasAnExpectation) {
  const json want = expected();
  std::set<std::string> listed;
  for (const auto& e : want["sets"]) listed.insert(e["file"].get<std::string>());
  for (const auto& entry : std::filesystem::directory_iterator(PICTOR_MARK_TEST_DATA)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name != "expected.json") {
      EXPECT_TRUE(listed.count(name)) << name << " has no expectation: rerun generate.js";
    }
  }
  for (const char* name : {"steps.json", "ties.json", "duplicates.json", "tiny.json", "mostly_mutation.json",
                           "negative.json", "flat.json", "knee.json", "jump.json", "fps120.json", "ramps.json",
                           "single.json", "lone.json", "sparse.json", "all_mutation.json", "recorded_multiply.json"})
    EXPECT_TRUE(listed.count(name)) << name;
}

// The bootstrap resamples every trimmed row, mutation rows included (MotionMark 1.3.1), not only
// the rows the regression fits.
TEST(Score, BootstrapResamplesBothFrameTypes) {
  const auto set = read_sample_set(data("steps.json"));
  const auto s = score_samples(set.samples, set.fps);
  const long n = s.samples;
  const long first = std::lround(std::floor(0.025 * double(n) + 0.5));
  const long last = std::lround(std::floor(0.975 * double(n - 1) + 0.5));
  EXPECT_EQ(s.bootstrap_rows, last - first + 1);
  EXPECT_GT(s.bootstrap_rows, s.animation_samples);
  // The full fit uses only the animation rows among them.
  long animation = 0;
  auto sorted = set.samples;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Sample& a, const Sample& b) { return a.complexity < b.complexity; });
  for (long i = first; i <= last; ++i) animation += sorted[static_cast<std::size_t>(i)].type == FrameType::Animation;
  EXPECT_EQ(s.animation_samples, animation);
}

TEST(Score, SuiteMatchesMotionMark) {
  const json want = expected();
  const json& suite = want["suite"];
  std::vector<TestScore> tests;
  for (const auto& file : suite["files"]) {
    const auto set = read_sample_set(data(file.get<std::string>()));
    tests.push_back(score_samples(set.samples, set.fps));
  }
  ASSERT_GE(tests.size(), 10u);
  const auto s = suite_score(tests);
  EXPECT_LE(relative_error(s.score, suite["score"]), kTolerance);
  EXPECT_LE(relative_error(s.lower, suite["lower"]), kTolerance);
  EXPECT_LE(relative_error(s.upper, suite["upper"]), kTolerance);
}

TEST(Score, SingleAnimationRow) {
  const auto set = read_sample_set(data("lone.json"));
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
