// The whole intelligent-client path on the embedded default (Xvfb + llvmpipe): record the racing
// game with the reference player, train a model for a few steps, run the game with `ic:MODEL`.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

int run(const std::string& args, const std::string& log) {
  const std::string cmd = std::string("'") + PICTOR_BIN + "' " + args + " >'" + log + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(log);
  std::stringstream s;
  s << in.rdbuf();
  std::cerr << s.str().substr(s.str().size() > 2000 ? s.str().size() - 2000 : 0);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(IcSystem, RecordTrainAndDriveRacing) {
  const std::string dir = test::temp_dir("system");
  ASSERT_EQ(run("record --driver reference builtin:racing -d 4s --out " + dir + "/rec", dir + "/record.log"), 0);
  ASSERT_EQ(run("train " + dir + "/rec --steps 20 --out " + dir + "/model", dir + "/train.log"), 0);
  ASSERT_TRUE(std::filesystem::exists(dir + "/model/manifest.json"));
  ASSERT_EQ(run("run --driver ic:" + dir + "/model builtin:racing -d 4s -o " + dir + "/run", dir + "/run.log"), 0);
  nlohmann::json run_json;
  std::ifstream(dir + "/run/run.json") >> run_json;
  const nlohmann::json& r = run_json["client"]["driver_report"];
  ASSERT_TRUE(r.is_object()) << run_json["client"].dump();
  EXPECT_GT(r["frames_processed"].get<int>(), 0);
  EXPECT_TRUE(r["inference_ms"]["detect"]["mean"].is_number());
  EXPECT_TRUE(r["inference_ms"]["policy"]["mean"].is_number());
  // The driver sent key inputs and the matcher tracked them.
  std::ifstream inputs(dir + "/run/inputs.csv");
  std::string line;
  int matched = 0;
  while (std::getline(inputs, line)) matched += line.find(",matched") != std::string::npos;
  EXPECT_GT(matched, 0);
}

}  // namespace
}  // namespace pictor::ic
