// `pictor colocate` (docs/resources.md "Colocated benchmarks"): two games measured alone, then
// together, and each one's loss against its solo run computed from the recorded figures.
#include <gtest/gtest.h>

#include <filesystem>

#include "helpers.h"

using namespace pictor::test;
namespace fs = std::filesystem;

TEST(Colocate, TwoGamesAloneAndTogetherWithTheirLoss) {
  const std::string dir = fresh_dir("colocate");
  const auto r = run_command({PICTOR_BIN, "colocate", "builtin:racing", "builtin:shooter", "--size", "480x270", "-d", "4s",
                              "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* d : {"solo-racing", "solo-shooter", "together/racing", "together/shooter"})
    EXPECT_TRUE(fs::exists(fs::path(dir) / d / "frames.csv")) << d;
  const auto report = read_json(dir + "/colocate.json");
  ASSERT_EQ(report["groups"].size(), 1u) << report.dump(2);
  for (const auto& m : report["groups"][0]["members"]) {
    const double alone = m["solo"]["fps_server"].get<double>(), with = m["together"]["fps_server"].get<double>();
    EXPECT_GT(alone, 0);
    EXPECT_GT(with, 0);
    EXPECT_NEAR(m["loss"]["fps_server_loss_pct"].get<double>(), 100 * (alone - with) / alone, 1e-6) << m.dump(2);
    // No driver: no client figures, and no number is invented for them.
    EXPECT_TRUE(m["loss"]["fps_client_loss_pct"].is_null());
  }
  EXPECT_NE(r.out.find("FPS loss"), std::string::npos) << r.out;
}
