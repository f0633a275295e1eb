// The interposer's FPS cost: the same built-in scene run with and without libpictor_hook.so,
// interleaved on one private Xvfb, each app counting its own frames. Prints per-scene medians
// and the median ratio (hooked / plain). Usage: hook_overhead [ROUNDS] [SECONDS] [SCENE...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runner/install_paths.h"
#include "runner/process.h"
#include "runner/xvfb.h"

namespace fs = std::filesystem;
using namespace pictor;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double run_once(const std::string& display, const std::string& scene, double seconds, bool hooked,
                const std::string& extra_env, const fs::path& work) {
  const fs::path out = work / (hooked ? "hooked" : "plain");
  fs::remove_all(out);
  fs::create_directories(out);
  runner::SpawnOptions o;
  o.argv = {runner::find_app_binary(), scene, "--size", "1280x720", "--duration", std::to_string(seconds), "--report"};
  o.env["DISPLAY"] = display;
  if (hooked) {
    o.env["LD_PRELOAD"] = runner::find_hook_library();
    o.env["PICTOR_OUT"] = out.string();
    if (!extra_env.empty()) {
      const auto eq = extra_env.find('=');
      o.env[extra_env.substr(0, eq)] = extra_env.substr(eq + 1);
    }
  }
  o.stdout_path = (out / "report.txt").string();
  auto p = runner::Process::spawn(o);
  p.wait_for(-1);
  std::ifstream in(out / "report.txt");
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find("fps=");
    if (at != std::string::npos) return std::stod(line.substr(at + 4));
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 3.0;
  std::vector<std::string> scenes;
  for (int i = 3; i < argc; ++i) scenes.emplace_back(argv[i]);
  if (scenes.empty()) scenes = {"null", "spin:objects=2000"};
  const char* extra = std::getenv("PICTOR_BENCH_ENV");  // e.g. PICTOR_MARKER=1
  const fs::path work = fs::temp_directory_path() / ("pictor-bench-" + std::to_string(::getpid()));
  auto xvfb = runner::Xvfb::start({1280, 720});
  std::printf("%-22s %12s %12s %10s  (medians of %d interleaved pairs, %.1f s each%s%s)\n", "scene", "plain FPS",
              "hooked FPS", "FPS loss", rounds, seconds, extra ? ", hooked with " : "", extra ? extra : "");
  for (const auto& scene : scenes) {
    std::vector<double> plain, hooked, ratio;
    for (int r = 0; r < rounds; ++r) {
      // Alternate which goes first so drift in machine load does not favour one side.
      const bool hooked_first = r % 2 == 1;
      double a = 0, b = 0;
      if (hooked_first) {
        b = run_once(xvfb->display(), scene, seconds, true, extra ? extra : "", work);
        a = run_once(xvfb->display(), scene, seconds, false, "", work);
      } else {
        a = run_once(xvfb->display(), scene, seconds, false, "", work);
        b = run_once(xvfb->display(), scene, seconds, true, extra ? extra : "", work);
      }
      if (a <= 0 || b <= 0) {
        std::fprintf(stderr, "hook_overhead: a run of %s reported no frames\n", scene.c_str());
        return 1;
      }
      plain.push_back(a);
      hooked.push_back(b);
      ratio.push_back(b / a);
    }
    const double loss = (1.0 - median(ratio)) * 100.0;
    std::printf("%-22s %12.1f %12.1f %9.2f%%\n", scene.c_str(), median(plain), median(hooked), loss);
  }
  fs::remove_all(work);
  return 0;
}
