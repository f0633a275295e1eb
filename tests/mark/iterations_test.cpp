// The suite's score leaves out a test its stage capped (a floor, not a change point), and an
// iterated run reports every iteration's scores with their mean and run-to-run interval.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mark/harness.h"
#include "mark/mark_output.h"
#include "mark/stats.h"

namespace pictor::mark {
namespace {

TestResult scored(const std::string& name, double score, bool capped = false) {
  TestResult t;
  t.name = name;
  t.title = name;
  t.controller = "ramp";
  TestScore s;
  s.score = score;
  s.lower = score * 0.9;
  s.upper = score * 1.1;
  t.score = s;
  t.stage_max = 8400;
  t.stage_max_reached = capped;
  t.stage_capped = capped;
  return t;
}

MarkResult result_of(std::vector<TestResult> tests) {
  MarkResult r;
  r.tests = std::move(tests);
  r.machine = {{"cores", 2}};
  score_suite(r);
  return r;
}

TEST(MarkSuite, ACappedTestIsLeftOutOfTheSuiteScoreWithAWarning) {
  const MarkResult r = result_of({scored("multiply", 8400, true), scored("paths", 400), scored("leaves", 900)});
  ASSERT_TRUE(r.suite);
  EXPECT_DOUBLE_EQ(r.suite->score, geometric_mean(std::vector<double>{400, 900}));
  EXPECT_EQ(r.excluded_from_suite, std::vector<std::string>{"multiply"});
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("'multiply' is left out of the suite's score"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find(">= 8400"), std::string::npos) << r.warnings[0];
  EXPECT_EQ(mark_to_json(r, MarkOptions{})["suite"]["excluded"], nlohmann::json::array({"multiply"}));
  EXPECT_NE(format_mark_table(r).find("capped by the stage: >= 8400, not in the suite score"), std::string::npos);

  const MarkResult all = result_of({scored("multiply", 8400, true)});
  EXPECT_FALSE(all.suite);
  EXPECT_NE(all.warnings.back().find("no suite score"), std::string::npos);
  EXPECT_TRUE(mark_to_json(all, MarkOptions{})["suite"].is_null());
}

TEST(MarkIterations, EachIterationAndTheMeanWithItsRunToRunInterval) {
  const std::vector<MarkResult> its = {result_of({scored("paths", 400), scored("leaves", 900)}),
                                       result_of({scored("paths", 440), scored("leaves", 880)}),
                                       result_of({scored("paths", 420), scored("leaves", 920)})};
  MarkOptions o;
  o.iterations = 3;
  const nlohmann::json j = iterations_to_json(its, o);
  EXPECT_EQ(j["options"]["iterations"], 3);
  ASSERT_EQ(j["iterations"].size(), 3u);
  EXPECT_EQ(j["iterations"][1]["dir"], "iteration-2");
  EXPECT_DOUBLE_EQ(j["iterations"][1]["tests"][0]["score"].get<double>(), 440);
  ASSERT_EQ(j["tests"].size(), 2u);
  const nlohmann::json& paths = j["tests"][0];
  EXPECT_EQ(paths["name"], "paths");
  EXPECT_DOUBLE_EQ(paths["score"].get<double>(), 420);
  EXPECT_NEAR(paths["sd"].get<double>(), 20, 1e-9);
  EXPECT_NEAR(paths["upper"].get<double>() - 420, 4.303 * 20 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(paths["cv"].get<double>(), 20.0 / 420, 1e-12);
  const std::vector<double> suites = {its[0].suite->score, its[1].suite->score, its[2].suite->score};
  EXPECT_DOUBLE_EQ(j["suite"]["score"].get<double>(), (suites[0] + suites[1] + suites[2]) / 3);
  EXPECT_EQ(j["suite"]["scores"].size(), 3u);
  EXPECT_TRUE(j["suite"]["lower"].is_number());
  EXPECT_NE(j["intervals"].get<std::string>().find("run to run"), std::string::npos);
  const std::string table = format_iterations_table(j);
  EXPECT_NE(table.find("run to run 95 %"), std::string::npos) << table;
  EXPECT_NE(table.find("Suite"), std::string::npos) << table;
  EXPECT_NE(table.find("420.00"), std::string::npos) << table;
}

}  // namespace
}  // namespace pictor::mark
