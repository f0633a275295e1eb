// Vulkan apps as a user measures them: `pictor run -- vkcube` (Debian's vulkan-tools) on Mesa's
// lavapipe, locally and over Xvnc, under Khronos' validation layer, and killed mid-run.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>

#include "core/clock.h"
#include "core/preload.h"
#include "helpers.h"
#include "runner/process.h"
#include "runner/xvfb.h"

using namespace pictor::test;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool have_vkcube() { return fs::exists("/usr/bin/vkcube"); }
#define REQUIRE_VKCUBE() \
  if (!have_vkcube()) FAIL() << "vkcube not found: run scripts/setup.sh (Debian package vulkan-tools)"

// Key releases the client sent: vkcube selects KeyRelease only, so X never delivers the presses.
int releases_sent(const std::string& dir) {
  int n = 0;
  for (const auto& row : read_csv_rows(dir + "/client_inputs.csv"))
    if (row.size() > 1 && row[1] == "key_release") ++n;
  return n;
}

// The validation layer's message ids in an app log ("Validation Error: [ VUID-… ]").
std::set<std::string> validation_errors(const std::string& log) {
  std::set<std::string> ids;
  // Found by hand: std::regex trips GCC 12's -Wmaybe-uninitialized in the sanitizer build.
  const std::string opening = "Validation Error: [ ";
  for (auto at = log.find(opening); at != std::string::npos; at = log.find(opening, at + 1)) {
    const auto begin = at + opening.size();
    const auto end = log.find_first_of(" ]", begin);
    if (end != std::string::npos && end > begin && log.compare(end, 2, " ]") == 0)
      ids.insert(log.substr(begin, end - begin));
  }
  return ids;
}

}  // namespace

TEST(VkLayer, VkcubeFramesAndGpuTimeAreRecorded) {
  REQUIRE_VKCUBE();
  const std::string dir = fresh_dir("vkcube");
  // vkcube stops by itself after --c frames: every present must be one row, no more, no fewer.
  constexpr int kFrames = 120;
  const std::int64_t before = pictor::monotonic_ns();
  const auto r = run_command({PICTOR_BIN, "run", "-d", "60s", "-o", dir, "--", "vkcube", "--c", std::to_string(kFrames),
                              "--width", "320", "--height", "240"});
  const std::int64_t after = pictor::monotonic_ns();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = read_csv_rows(dir + "/frames.csv");
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(kFrames));
  const auto hook = read_json(dir + "/hook.json");
  EXPECT_EQ(hook["api"], "Vulkan");
  EXPECT_NE(hook["gl_renderer"].get<std::string>().find("llvmpipe"), std::string::npos) << hook.dump();
  EXPECT_EQ(hook["gpu_timer"], "Vulkan timestamp queries");
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["gl"]["api"], "Vulkan");
  // Frame times: positive, adding up to the span of the presents, which lies inside the run.
  const std::int64_t first = std::stoll(rows.front()[2]), last = std::stoll(rows.back()[2]);
  EXPECT_GE(first, before);
  EXPECT_LE(last, after);
  EXPECT_TRUE(rows[0][3].empty());
  double sum_ms = 0;
  std::size_t gpu = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(std::stoull(rows[i][0]), i) << "frame index";
    if (i > 0) {
      const double frame_ms = std::stod(rows[i][3]);
      EXPECT_GT(frame_ms, 0.0) << "frame " << i;
      sum_ms += frame_ms;
    }
    EXPECT_GE(std::stod(rows[i][5]), 0.0) << "present call time";
    if (!rows[i][6].empty()) {
      ++gpu;
      const double gpu_ms = std::stod(rows[i][6]);
      EXPECT_GE(gpu_ms, 0.0);
      EXPECT_LT(gpu_ms, static_cast<double>(last - first) / 1e6) << "frame " << i;
    }
  }
  EXPECT_NEAR(sum_ms, static_cast<double>(last - first) / 1e6, 0.01 * kFrames);
  // The first frame is begun before the timer exists; a busy slot may skip a few more.
  EXPECT_GE(gpu, rows.size() * 8 / 10) << "frames with a GPU time";
  EXPECT_GT(read_json(dir + "/summary.json")["fps_avg"].get<double>(), 5.0);
}

TEST(VkLayer, ScriptedInputsMatchVkcubeFramesThroughTheMarker) {
  REQUIRE_VKCUBE();
  const std::string dir = fresh_dir("vkcube-input");
  // Left and Right turn the cube (space would pause it).
  const auto r = run_command({PICTOR_BIN, "run", "--driver", "scripted:rate=4,keys=Left|Right,seed=3", "-d", "8s", "-o",
                              dir, "--json", "--", "vkcube", "--width", "320", "--height", "240"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const int releases = releases_sent(dir);
  EXPECT_GE(releases, 10);
  EXPECT_GE(j["inputs"]["matched"].get<int>() * 10, releases * 9) << j["inputs"].dump();
  EXPECT_GT(j["rtt_ms"]["p50"].get<double>(), 0.0);
  // The client decoded the marker from the window: tags and frame numbers.
  const auto seen = read_csv_rows(dir + "/client_frames.csv");
  std::size_t tagged = 0;
  for (const auto& row : seen)
    if (row.size() > 2 && !row[1].empty() && !row[2].empty()) ++tagged;
  EXPECT_GE(tagged, 20u);
  EXPECT_EQ(read_json(dir + "/hook.json")["marker"], true);
}

TEST(VkLayer, ScriptedInputsMatchOverXvnc) {
  REQUIRE_VKCUBE();
  const std::string dir = fresh_dir("vkcube-xvnc");
  const auto r =
      run_command({PICTOR_BIN, "run", "--adapter", "xvnc", "--driver", "scripted:rate=4,keys=Left|Right,seed=5", "-d",
                   "8s", "-o", dir, "--json", "--", "vkcube", "--width", "320", "--height", "240"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const int releases = releases_sent(dir);
  EXPECT_GE(releases, 10);
  EXPECT_GE(j["inputs"]["matched"].get<int>() * 10, releases * 9) << j["inputs"].dump();
  // The RFB client found the marker in the framebuffer updates.
  std::size_t marker_updates = 0;
  for (const auto& row : read_csv_rows(dir + "/client_frames.csv"))
    if (row.size() > 1 && !row[1].empty()) ++marker_updates;
  EXPECT_GE(marker_updates, 20u);
}

TEST(VkLayer, ValidationLayerFindsNothingThePictorLayerCauses) {
  REQUIRE_VKCUBE();
  if (!fs::exists("/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"))
    FAIL() << "Khronos validation layer not found: run scripts/setup.sh --tests (vulkan-validationlayers)";
  // The validation layer enabled by the environment sits below Pictor's implicit layer, so it
  // sees every call Pictor's layer makes (the marker's barriers, copy and semaphores, the
  // timestamp submissions) as well as the app's. Whatever it reports with Pictor's layer must also
  // be reported for vkcube alone.
  setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation", 1);
  setenv("VK_LOADER_DEBUG", "layer", 1);
  // Synchronization validation too: the marker's barriers and semaphores are what could be wrong.
  setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT", 1);
  const std::string with = fresh_dir("vkcube-validation");
  const std::string without = fresh_dir("vkcube-validation-plain");
  const auto r = run_command({PICTOR_BIN, "run", "--driver", "scripted:rate=4,keys=Left|Right,seed=2", "-d", "6s", "-o",
                              with, "--", "vkcube", "--width", "320", "--height", "240"});
  const auto plain = run_command(
      {PICTOR_BIN, "run", "--no-hook", "-d", "3s", "-o", without, "--", "vkcube", "--width", "320", "--height", "240"});
  unsetenv("VK_INSTANCE_LAYERS");
  unsetenv("VK_LOADER_DEBUG");
  unsetenv("VK_LAYER_ENABLES");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string log = slurp(with + "/app.log");
  // Both layers were in the chain, Pictor's above the validation layer (the loader prints the
  // chain from the application down to the drivers).
  const auto chain = log.find("vkCreateInstance layer callstack setup to:");
  ASSERT_NE(chain, std::string::npos) << log.substr(0, 4000);
  const auto pictor_at = log.find("VK_LAYER_PICTOR_hook", chain);
  const auto validation_at = log.find("VK_LAYER_KHRONOS_validation", chain);
  ASSERT_NE(pictor_at, std::string::npos) << log.substr(chain, 3000);
  ASSERT_NE(validation_at, std::string::npos) << log.substr(chain, 3000);
  EXPECT_LT(pictor_at, validation_at) << log.substr(chain, 3000);
  // And Pictor's layer did its work under validation.
  EXPECT_GE(read_csv_rows(with + "/frames.csv").size(), 20u);
  EXPECT_GE(read_csv_rows(with + "/client_frames.csv").size(), 10u);
  std::set<std::string> caused;
  const std::set<std::string> alone = validation_errors(slurp(without + "/app.log"));
  for (const auto& id : validation_errors(log))
    if (!alone.count(id)) caused.insert(id);
  std::string list;
  for (const auto& id : caused) list += id + " ";
  EXPECT_TRUE(caused.empty()) << "validation errors only with Pictor's layer: " << list << "(see " << with
                              << "/app.log)";
}

TEST(VkLayer, SigkillLosesAtMost100ms) {
  REQUIRE_VKCUBE();
  const std::string dir = fresh_dir("vkcube-kill");
  auto xvfb = pictor::runner::Xvfb::start({320, 240});
  pictor::runner::SpawnOptions o;
  o.argv = {"vkcube", "--width", "320", "--height", "240"};
  o.env = {{"DISPLAY", xvfb->display()},
           {"LD_PRELOAD", pictor::preload_value(PICTOR_HOOK_PATH)},
           {"PICTOR_OUT", dir},
           {"XDG_DATA_DIRS", std::string(PICTOR_VK_LAYER_DIR) + ":/usr/local/share:/usr/share"}};
  o.stdout_path = dir + "/app.log";
  o.stderr_path = dir + "/app.log";
  const KilledApp k = kill_mid_run(o, dir, 2000);
  ASSERT_TRUE(k.running_at_kill);
  ASSERT_GT(k.rows, 10u);
  EXPECT_GE(k.last_frame_ns, k.kill_ns - 100'000'000) << "more than 100 ms of frames lost";
  EXPECT_LE(k.last_frame_ns, k.kill_ns);
}

TEST(VkLayer, WithoutThePreloadTheLoaderSkipsTheLayer) {
  REQUIRE_VKCUBE();
  // The manifest names the interposer by soname: found only where it is preloaded, so an app
  // that inherits the search path without the preload runs unchanged and records nothing.
  const std::string dir = fresh_dir("vkcube-nopreload");
  auto xvfb = pictor::runner::Xvfb::start({320, 240});
  pictor::runner::SpawnOptions o;
  o.argv = {"vkcube", "--c", "30", "--width", "160", "--height", "120"};
  o.env = {{"DISPLAY", xvfb->display()},
           {"PICTOR_OUT", dir},
           {"XDG_DATA_DIRS", std::string(PICTOR_VK_LAYER_DIR) + ":/usr/local/share:/usr/share"}};
  o.stdout_path = dir + "/../vkcube-nopreload.log";
  o.stderr_path = o.stdout_path;
  auto app = pictor::runner::Process::spawn(o);
  const auto st = app.wait_for(60);
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 0) << st->describe() << "\n" << slurp(o.stdout_path);
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(VkLayer, DisableVariableTurnsTheLayerOff) {
  REQUIRE_VKCUBE();
  const std::string dir = fresh_dir("vkcube-disabled");
  auto xvfb = pictor::runner::Xvfb::start({320, 240});
  pictor::runner::SpawnOptions o;
  o.argv = {"vkcube", "--c", "30", "--width", "160", "--height", "120"};
  o.env = {{"DISPLAY", xvfb->display()},
           {"LD_PRELOAD", pictor::preload_value(PICTOR_HOOK_PATH)},
           {"PICTOR_OUT", dir},
           {"PICTOR_VULKAN_DISABLE", "1"},
           {"XDG_DATA_DIRS", std::string(PICTOR_VK_LAYER_DIR) + ":/usr/local/share:/usr/share"}};
  o.stdout_path = dir + "/app.log";
  o.stderr_path = dir + "/app.log";
  auto app = pictor::runner::Process::spawn(o);
  const auto st = app.wait_for(60);
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(st->exited && st->code == 0) << st->describe();
  EXPECT_FALSE(fs::exists(dir + "/frames.csv"));
}
