// `ic eval`'s comparison of rounds: rows of several rounds become one median row per driver,
// on rows built from constructed session outcomes whose answers are known by hand.
#include "ic/ic_eval.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"

namespace pictor::ic {
namespace {

SessionOutcome outcome(std::vector<double> rtt_ms, double score) {
  SessionOutcome o;
  o.rtt_ms = std::move(rtt_ms);
  o.presses = o.rtt_ms.size();
  o.inputs_sent = o.rtt_ms.size();
  o.duration_s = 60;
  o.state = {{"score", score}, {"phase", "play"}};
  return o;
}

nlohmann::json round(const SessionOutcome& ref, const SessionOutcome& ic) {
  return nlohmann::json::array({compare_row("reference", ref, ref), compare_row("ic", ic, ref)});
}

TEST(IcEval, CompareRowErrorIsSignedShareOfTheReferenceMean) {
  const nlohmann::json row = compare_row("ic", outcome({9, 11}, 1), outcome({20, 20}, 1));
  EXPECT_DOUBLE_EQ(row["mean_ms"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(row["mean_error_pct"].get<double>(), -50.0);
  EXPECT_DOUBLE_EQ(row["ks"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(row["apm"].get<double>(), 2.0);
}

TEST(IcEval, NoMatchedInputGivesNullNotZero) {
  const nlohmann::json row = compare_row("ic", outcome({}, 0), outcome({20}, 1));
  EXPECT_TRUE(row["mean_ms"].is_null());
  EXPECT_TRUE(row["mean_error_pct"].is_null());
  EXPECT_TRUE(row["ks"].is_null());
}

TEST(IcEval, MedianRowsTakeTheMiddleRoundPerNumberAndSumN) {
  // Errors per round: +10 %, -20 %, +5 % → median +5 %; scores 3, 9, 6 → 6.
  const std::vector<nlohmann::json> rounds{round(outcome({10, 10}, 1), outcome({11, 11}, 3)),
                                           round(outcome({10, 10}, 2), outcome({8, 8, 8}, 9)),
                                           round(outcome({20, 20}, 3), outcome({21}, 6))};
  const nlohmann::json rows = median_rows(rounds);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["driver"], "reference");
  EXPECT_DOUBLE_EQ(rows[0]["mean_error_pct"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(rows[0]["state"]["score"].get<double>(), 2.0);
  const nlohmann::json& ic = rows[1];
  EXPECT_EQ(ic["driver"], "ic");
  EXPECT_EQ(ic["n"].get<std::size_t>(), 6u);
  EXPECT_NEAR(ic["mean_error_pct"].get<double>(), 5.0, 1e-9);
  EXPECT_DOUBLE_EQ(ic["mean_ms"].get<double>(), 11.0);  // of 11, 8, 21
  EXPECT_DOUBLE_EQ(ic["state"]["score"].get<double>(), 6.0);
  EXPECT_EQ(ic["state"]["phase"], "play");
  // Pooled: ic (22 + 24 + 21) / 6 = 11.1667 ms against the reference's (20 + 20 + 40) / 6.
  EXPECT_NEAR(ic["pooled_mean_ms"].get<double>(), 67.0 / 6.0, 1e-9);
  EXPECT_NEAR(ic["pooled_error_pct"].get<double>(), (67.0 / 80.0 - 1.0) * 100.0, 1e-9);
  ASSERT_EQ(ic["per_round"].size(), 3u);
  EXPECT_NEAR(ic["per_round"][1]["mean_error_pct"].get<double>(), -20.0, 1e-9);
  EXPECT_DOUBLE_EQ(ic["per_round"][2]["state"]["score"].get<double>(), 6.0);
}

TEST(IcEval, RoundErrorIsAStudentIntervalOverTheRounds) {
  // Errors +1 %, -2 %, -6.5 %: mean -2.5, sd 3.775, t(0.975, 2) = 4.303 → half-width 9.379.
  const std::vector<nlohmann::json> rounds{round(outcome({100}, 1), outcome({101}, 1)),
                                           round(outcome({100}, 1), outcome({98}, 1)),
                                           round(outcome({100}, 1), outcome({93.5}, 1))};
  const nlohmann::json rows = median_rows(rounds);
  EXPECT_TRUE(rows[0]["round_error"].is_null());
  const nlohmann::json& e = rows[1]["round_error"];
  ASSERT_TRUE(e.is_object()) << rows[1].dump();
  EXPECT_EQ(e["rounds"], 3);
  EXPECT_NEAR(e["mean_pct"].get<double>(), -2.5, 1e-9);
  const double half = 4.303 * std::sqrt(14.25) / std::sqrt(3.0);
  EXPECT_NEAR(e["ci95_pct"][0].get<double>(), -2.5 - half, 1e-9);
  EXPECT_NEAR(e["ci95_pct"][1].get<double>(), -2.5 + half, 1e-9);
  const std::string table = format_ic_eval({{"benchmark", "b"}, {"reference", "reference"}, {"rounds", 3}, {"rows", rows}});
  EXPECT_NE(table.find("-2.5 [-11.9, +6.9]"), std::string::npos) << table;
  // One round without matched inputs leaves one error: no interval rather than a zero-width one.
  const std::vector<nlohmann::json> thin{round(outcome({100}, 1), outcome({101}, 1)),
                                         round(outcome({100}, 1), outcome({}, 1))};
  EXPECT_TRUE(median_rows(thin)[1]["round_error"].is_null());
}

TEST(IcEval, MedianSkipsRoundsWithoutTheNumber) {
  // The middle round matched nothing: the median is over the two that did (nearest rank: lower).
  const std::vector<nlohmann::json> rounds{round(outcome({10}, 1), outcome({12}, 1)),
                                           round(outcome({10}, 1), outcome({}, 1)),
                                           round(outcome({10}, 1), outcome({14}, 1))};
  const nlohmann::json rows = median_rows(rounds);
  EXPECT_NEAR(rows[1]["mean_error_pct"].get<double>(), 20.0, 1e-9);
  EXPECT_TRUE(rows[1]["per_round"][1]["mean_error_pct"].is_null());
}

TEST(IcEval, RoundsWithOtherDriversAreRefused) {
  const SessionOutcome a = outcome({10}, 1);
  nlohmann::json other = round(a, a);
  other[1]["driver"] = "replay";
  EXPECT_THROW(median_rows({round(a, a), other}), UsageError);
}

TEST(IcEval, DriverListSplitsOnlyWhereANewDriverStarts) {
  const std::vector<std::string> names{"ic", "replay", "gated-replay", "reference", "scripted"};
  EXPECT_EQ(split_driver_specs("ic:m/x,act=held,seed=2,replay:rec,gated-replay:rec,threshold=9,reference", names),
            (std::vector<std::string>{"ic:m/x,act=held,seed=2", "replay:rec", "gated-replay:rec,threshold=9", "reference"}));
  // A path with commas stays with its driver; an unknown name starts nothing.
  EXPECT_EQ(split_driver_specs("replay:a,b,nosuch:c", names), (std::vector<std::string>{"replay:a,b,nosuch:c"}));
  EXPECT_EQ(split_driver_specs("", names), std::vector<std::string>{});
}

TEST(IcEval, RowsAreLabelledAndRepeatsNumbered) {
  const std::vector<EvalRun> runs =
      eval_runs("reference", {"ic:m,act=held", "replay:r", "replay:r", "reference", "ic:m"}, false);
  ASSERT_EQ(runs.size(), 6u);
  EXPECT_EQ(runs[0].label, "reference");
  EXPECT_TRUE(runs[0].reference);
  EXPECT_EQ(runs[0].spec, "reference");
  std::vector<std::string> labels;
  for (std::size_t i = 1; i < runs.size(); ++i) {
    EXPECT_FALSE(runs[i].reference);
    labels.push_back(runs[i].label);
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"ic,act=held", "replay", "replay#2", "reference#2", "ic"}));
  // A recorded reference runs no session: only the drivers' rows; the player as a driver is still the control row.
  const std::vector<EvalRun> rec = eval_runs("REC", {"reference", "replay:r"}, true);
  ASSERT_EQ(rec.size(), 2u);
  EXPECT_EQ(rec[0].label, "reference#2");
  EXPECT_EQ(rec[1].label, "replay");
}

}  // namespace
}  // namespace pictor::ic
