// `pictor-app`: hosts one built-in scene in an X11/GLX window, as an ordinary OpenGL program
// that `pictor run builtin:NAME` starts under the interposer like any third-party app.
#include <CLI/CLI.hpp>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>

#include "apps/scene.h"
#include "core/clock.h"
#include "core/error.h"
#include "platform/gl_window.h"

namespace {
volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }
}  // namespace

int main(int argc, char** argv) {
  using namespace pictor;
  CLI::App cli{"pictor-app: runs one built-in Pictor scene in a window"};
  std::string spec_text;
  std::string size_text = "1280x720";
  std::string duration_text = "0";
  bool list = false;
  bool report = false;
  cli.add_option("scene", spec_text, "NAME[:option=value...]");
  cli.add_option("--size", size_text, "window size WxH")->capture_default_str();
  cli.add_option("--duration", duration_text, "stop after this long (0 = until SIGTERM)")->capture_default_str();
  cli.add_flag("--list", list, "list scenes and their options");
  cli.add_flag("--report", report, "print the frames the app itself counted (for overhead benchmarks)");
  CLI11_PARSE(cli, argc, argv);

  try {
    if (list || spec_text.empty()) {
      std::fputs(apps::describe_scenes().c_str(), stdout);
      return spec_text.empty() && !list ? 2 : 0;
    }
    const apps::SceneSpec spec = apps::parse_scene_spec(spec_text);
    const apps::SceneInfo* info = apps::find_scene(spec.name);
    if (!info) throw UsageError("unknown built-in scene '" + spec.name + "' (pictor-app --list)");
    auto scene = info->make();
    apps::SceneContext context;
    context.size = parse_size(size_text);
    context.options = apps::SceneOptions(scene->options(), spec.options, spec.name);
    const double duration = parse_duration_s(duration_text);
    const double max_fps = context.options.number("max_fps");
    const std::int64_t min_period_ns = max_fps > 0 ? static_cast<std::int64_t>(1e9 / max_fps) : 0;

    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    auto window = platform::GlWindow::create({context.size, "pictor: " + spec.name, "", false});
    scene->setup(context);
    const std::int64_t start = monotonic_ns();
    std::int64_t previous = start;
    bool open = true;
    std::int64_t frames = 0, first_swap = 0, last_swap = 0;
    std::int64_t next_frame_ns = start;  // the limiter's deadline for the next frame's start
    while (open && !g_stop) {
      open = window->pump([&](const platform::InputEvent& e) { scene->input(e); });
      const std::int64_t now = monotonic_ns();
      const double t = static_cast<double>(now - start) * 1e-9;
      if (duration > 0 && t >= duration) break;
      scene->update(t, static_cast<double>(now - previous) * 1e-9);
      previous = now;
      scene->draw();
      window->swap();
      last_swap = monotonic_ns();
      if (frames++ == 0) first_swap = last_swap;
      if (min_period_ns > 0) {
        // A frame limiter (as MangoHud's or a game's own): the next frame starts one period after
        // the previous one did; a frame that overran starts at once, without catching up in a
        // burst and without waiting for a whole extra period as double-buffered vsync would.
        next_frame_ns = std::max(next_frame_ns + min_period_ns, last_swap);
        const timespec ts{static_cast<time_t>(next_frame_ns / 1'000'000'000),
                          static_cast<long>(next_frame_ns % 1'000'000'000)};
        while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR && !g_stop) {
        }
      }
    }
    scene->teardown();
    if (report && frames > 1) {
      // CPU time of the whole process (all threads: llvmpipe's, an interposer's writer): less
      // sensitive to a noisy machine than wall-clock FPS.
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      const double cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
      std::printf("frames=%lld seconds=%.6f fps=%.3f cpu_s=%.6f\n", static_cast<long long>(frames),
                  static_cast<double>(last_swap - first_swap) * 1e-9,
                  static_cast<double>(frames - 1) / (static_cast<double>(last_swap - first_swap) * 1e-9), cpu_s);
    }
    return 0;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "pictor-app: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pictor-app: %s\n", e.what());
    return 1;
  }
}
