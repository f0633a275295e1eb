// `pictor run --driver … --no-marker`: without the marker the client records each capture's mean
// colour (client_colours.csv), and on the latency scene that times every input by its colour flip
// (what bench/hook/tracking_overhead compares against RTT by tag).
#include <gtest/gtest.h>

#include "colour_rtt.h"
#include "helpers.h"

using namespace pictor::test;

TEST(NoMarker, LatencySceneIsTimedByColour) {
  const std::string dir = fresh_dir("nomarker");
  const auto r = run_command({PICTOR_BIN, "run", "--driver", "scripted:rate=4,keys=space,seed=2", "--no-marker",
                              "builtin:latency", "--size", "320x240", "-d", "5s", "-o", dir, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // No tags without the marker: the tag-based RTT is unknown, never invented.
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["inputs"]["matched"], 0) << j["inputs"].dump();
  const auto colours = read_csv_rows(dir + "/client_colours.csv");
  const auto frames = read_csv_rows(dir + "/client_frames.csv");
  ASSERT_EQ(colours.size(), frames.size());
  ASSERT_FALSE(colours.empty());
  EXPECT_EQ(colours[0][0], frames[0][0]);  // the same captures, the same seen_ns
  const auto c = pictor::bench::session_colour_rtt(dir);
  EXPECT_TRUE(c.failure.empty()) << c.failure;
  EXPECT_GE(c.sent, 10u);
  EXPECT_GE(c.rtt_ms.size() * 10, c.sent * 9) << c.ambiguous << " ambiguous, " << c.not_seen << " not seen";
  for (const double v : c.rtt_ms) {
    EXPECT_GT(v, 0.0);
    EXPECT_LT(v, 1000.0);
  }
}
