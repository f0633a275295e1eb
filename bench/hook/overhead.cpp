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

struct Sample {
  double fps = -1;
  double cpu_us_per_frame = -1;
};

Sample run_once(const std::string& display, const std::string& scene, double seconds, bool hooked,
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
  Sample s;
  while (std::getline(in, line)) {
    const auto f = line.find("frames="), at = line.find("fps="), cpu = line.find("cpu_s=");
    if (at == std::string::npos || cpu == std::string::npos || f == std::string::npos) continue;
    s.fps = std::stod(line.substr(at + 4));
    s.cpu_us_per_frame = std::stod(line.substr(cpu + 6)) * 1e6 / std::stod(line.substr(f + 7));
  }
  return s;
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
  std::printf("%-22s %10s %10s %9s %14s %14s %12s  (medians of %d interleaved pairs, %.1f s each%s%s)\n", "scene",
              "plain FPS", "hooked FPS", "FPS loss", "plain CPU/fr", "hooked CPU/fr", "CPU/fr added",
              rounds, seconds, extra ? ", hooked with " : "", extra ? extra : "");
  for (const auto& scene : scenes) {
    std::vector<double> plain, hooked, ratio, plain_cpu, hooked_cpu, added_cpu;
    for (int r = 0; r < rounds; ++r) {
      // Alternate which goes first so drift in machine load does not favour one side.
      const bool hooked_first = r % 2 == 1;
      Sample a, b;
      if (hooked_first) {
        b = run_once(xvfb->display(), scene, seconds, true, extra ? extra : "", work);
        a = run_once(xvfb->display(), scene, seconds, false, "", work);
      } else {
        a = run_once(xvfb->display(), scene, seconds, false, "", work);
        b = run_once(xvfb->display(), scene, seconds, true, extra ? extra : "", work);
      }
      if (a.fps <= 0 || b.fps <= 0) {
        std::fprintf(stderr, "hook_overhead: a run of %s reported no frames\n", scene.c_str());
        return 1;
      }
      plain.push_back(a.fps);
      hooked.push_back(b.fps);
      ratio.push_back(b.fps / a.fps);
      plain_cpu.push_back(a.cpu_us_per_frame);
      hooked_cpu.push_back(b.cpu_us_per_frame);
      added_cpu.push_back(b.cpu_us_per_frame - a.cpu_us_per_frame);
    }
    const double loss = (1.0 - median(ratio)) * 100.0;
    std::printf("%-22s %10.1f %10.1f %8.2f%% %11.1f us %11.1f us %9.1f us\n", scene.c_str(), median(plain),
                median(hooked), loss, median(plain_cpu), median(hooked_cpu), median(added_cpu));
    std::fflush(stdout);
  }
  fs::remove_all(work);
  return 0;
}
