// The whole intelligent-client path on the embedded default (Xvfb + llvmpipe): record the racing
// game with the reference player, train a model for a few steps, run the game with `ic:MODEL`.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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
  // 20 steps make a weak model: refused (exit 1, the reason on the last line, nothing saved),
  // then saved with --accept-weak; the run warns that it loads a weak model.
  EXPECT_EQ(run("train " + dir + "/rec --steps 20 --out " + dir + "/model", dir + "/weak.log"), 1);
  EXPECT_FALSE(std::filesystem::exists(dir + "/model/manifest.json"));
  const auto last_line = [](const std::string& log) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    return last;
  };
  EXPECT_EQ(last_line(dir + "/weak.log").rfind("pictor: train: a weak model, not saved to ", 0), 0u)
      << last_line(dir + "/weak.log");
  ASSERT_EQ(run("train " + dir + "/rec --steps 20 --accept-weak --out " + dir + "/model", dir + "/train.log"), 0);
  ASSERT_TRUE(std::filesystem::exists(dir + "/model/manifest.json"));
  ASSERT_EQ(run("run --driver ic:" + dir + "/model builtin:racing -d 4s -o " + dir + "/run", dir + "/run.log"), 0);
  {
    std::ifstream in(dir + "/run.log");
    const std::string log((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(log.find("pictor: warning: ic:" + dir + "/model is a weak model ("), std::string::npos);
  }
  nlohmann::json run_json;
  std::ifstream(dir + "/run/run.json") >> run_json;
  const nlohmann::json& r = run_json["client"]["driver_report"];
  ASSERT_TRUE(r.is_object()) << run_json["client"].dump();
  EXPECT_GT(r["frames_processed"].get<int>(), 0);
  EXPECT_EQ(r["model_weak"], true);
  EXPECT_TRUE(r["fidelity"]["teacher"]["inputs_per_minute"].is_number());  // the recording's, from the manifest
  EXPECT_EQ(r["fidelity"]["ic"]["inputs"], r["actions"]);
  EXPECT_TRUE(r["inference_ms"]["detect"]["mean"].is_number());
  EXPECT_TRUE(r["inference_ms"]["policy"]["mean"].is_number());
  // The driver sent key inputs and the matcher tracked them.
  std::ifstream inputs(dir + "/run/inputs.csv");
  std::string line;
  int matched = 0;
  while (std::getline(inputs, line)) matched += line.find(",matched") != std::string::npos;
  EXPECT_GT(matched, 0);

  // The detector's input size and the chosen decode threshold reach the manifest, and the driver
  // runs such a model; bad values are refused before any training.
  ASSERT_EQ(run("train " + dir + "/rec --steps 5 --accept-weak --input 256x144 --confidence auto --out " + dir + "/model256",
                dir + "/train256.log"), 0);
  nlohmann::json m;
  std::ifstream(dir + "/model256/manifest.json") >> m;
  EXPECT_EQ(m["input_size"], nlohmann::json::array({256, 144}));
  EXPECT_EQ(m["detector"]["grid"], nlohmann::json::array({32, 18}));
  const double confidence = m["detector"]["confidence"].get<double>();
  EXPECT_GE(confidence, 0.05);
  EXPECT_LE(confidence, 0.95);
  ASSERT_EQ(run("run --driver ic:" + dir + "/model256 builtin:racing -d 2s -o " + dir + "/run256", dir + "/run256.log"), 0);
  nlohmann::json run256;
  std::ifstream(dir + "/run256/run.json") >> run256;
  EXPECT_GT(run256["client"]["driver_report"]["frames_processed"].get<int>(), 0);
  EXPECT_EQ(run("train " + dir + "/rec --confidence 1.5 --out " + dir + "/bad", dir + "/bad1.log"), 2);
  EXPECT_EQ(run("train " + dir + "/rec --input 250x144 --out " + dir + "/bad", dir + "/bad2.log"), 2);
  EXPECT_EQ(run("train " + dir + "/rec --input 512x288 --out " + dir + "/bad", dir + "/bad3.log"), 2);
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad/manifest.json"));
}

}  // namespace
}  // namespace pictor::ic
