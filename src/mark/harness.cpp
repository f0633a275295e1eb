#include "mark/harness.h"

#include <X11/Xlib.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>

#include "core/clock.h"
#include "core/error.h"
#include "mark/machine_info.h"
#include "runner/machine.h"
#include "mark/pacer.h"
#include "mark/ramp_controller.h"
#include "mark/tests/catalog.h"
#include "mark/tests/sprites.h"
#include "platform/gl_window.h"
#include "runner/xvfb.h"
#include "core/time_text.h"
#include <fmt/format.h>

namespace pictor::mark {
namespace {

constexpr Size kSmall{568, 320}, kMedium{900, 600}, kLarge{1600, 800};
// The embedded Xvfb's screen, from which the default stage is chosen as MotionMark does: medium.
// (Large quadruples llvmpipe's per-frame fill and copy cost, which on a small machine leaves too
// little of the frame for the elements.) --size large grows the screen to fit.
constexpr Size kEmbeddedScreen{1280, 1024};

Size screen_size(const std::string& display) {
  Display* d = XOpenDisplay(display.c_str());
  if (!d) throw RunError("cannot open X display '" + display + "'");
  const Size s{DisplayWidth(d, DefaultScreen(d)), DisplayHeight(d, DefaultScreen(d))};
  XCloseDisplay(d);
  return s;
}

std::string phase_of(const Controller& controller, const TestLoop& loop) {
  if (!loop.warmed_up()) return "warm-up";
  if (const auto* ramp = dynamic_cast<const RampController*>(&controller))
    return ramp->finished_tier_sampling() ? "ramp " + std::to_string(ramp->ramps().size() + 1) : "tiers";
  return controller.name();
}

// Runs one test in its own window; returns the raw material of its result.
TestResult run_test(const std::string& name, const MarkOptions& options, double fps, Size size,
                    const std::string& display, nlohmann::json& machine, int index, int count,
                    const std::function<void(const Progress&)>& progress) {
  const auto& info = stages::find_test(name);
  auto window = platform::GlWindow::create({size, "pictor mark: " + info.title, display, options.vsync});
  if (machine.find("gl_renderer") == machine.end()) machine.update(gl_info());
  stages::SpriteRenderer renderer(size);
  auto stage = stages::make_stage(name, renderer);
  ControllerOptions copts;
  copts.fps = fps;
  copts.test_interval_ms = options.duration_s * 1000;
  auto controller = make_controller(options.controller, copts, options.fixed_complexity);
  TestLoop loop(*stage, *controller, options.warmup);

  std::unique_ptr<FramePacer> pacer;
  if (options.vsync)
    pacer = std::make_unique<SwapPacer>();
  else
    pacer = std::make_unique<TickPacer>(fps);

  TestResult result;
  result.name = name;
  result.title = info.title;
  result.controller = controller->name();
  const int64_t base_ns = monotonic_ns();
  int64_t last_progress = 0;
  bool open = true;
  while (open) {
    const int64_t start = pacer->wait_for_frame();
    const double t = static_cast<double>(start - base_ns) / 1e6;
    if (!loop.frame(t)) break;
    const int64_t before_swap = monotonic_ns();
    window->swap();
    const int64_t after_swap = monotonic_ns();
    pacer->frame_submitted();
    result.frames.push_back({start, static_cast<double>(after_swap - start) / 1e6,
                             static_cast<double>(after_swap - before_swap) / 1e6});
    open = window->pump([](const platform::InputEvent&) {});
    if (progress && start - last_progress > 250'000'000) {
      last_progress = start;
      progress({name, index, count, t / 1000, static_cast<double>(stage->complexity()), phase_of(*controller, loop)});
    }
  }
  if (!open) throw RunError("the mark window was closed during '" + name + "'");

  // The frame that called start() is both the last warm-up frame and sample 0.
  result.warmup_frames = static_cast<long>(result.frames.size()) - static_cast<long>(controller->samples().size()) + 1;
  result.controller_samples = controller->processed_samples();
  for (const auto& s : controller->samples()) result.smoothed.push_back(s.smoothed_frame_length);
  result.scored_samples = controller->scored_samples();
  if (stage->max_complexity() != Stage::kUnbounded) result.stage_max = stage->max_complexity();
  result.stage_max_reached = reached_stage_maximum(*controller, *stage);
  if (const auto* ramp = dynamic_cast<const RampController*>(controller.get())) {
    result.ramps = ramp->ramps();
    result.skipped_ramps = ramp->skipped_ramps();
    if (result.ramps.empty())
      throw RunError("'" + name + "' completed no ramp in " + std::to_string(options.duration_s) +
                     " s: use a longer --duration");
    try {
      result.score = score_samples(result.scored_samples, fps);
    } catch (const UsageError& e) {
      // The run produced samples MotionMark's method cannot score: the measured thing failed.
      throw RunError("'" + name + "': " + e.what());
    }
  } else {
    RunningStats complexity;
    for (std::size_t i = controller->sampling_start_index(); i < result.controller_samples.size(); ++i)
      complexity.sample(result.controller_samples[i].complexity);
    result.mean_complexity = complexity.mean();
  }
  if (result.stage_max_reached && result.score)
    result.stage_capped = capped_by_stage(*result.score, static_cast<double>(stage->max_complexity()), fps);
  if (result.stage_capped)
    result.warnings.push_back("the stage reached its maximum of " + std::to_string(stage->max_complexity()) +
                              " elements and still ran at the target rate there: the score is a floor set by "
                              "the stage, not the machine's capacity");
  if (result.score && result.score->negative_slope_share > 0.5)
    result.warnings.push_back("frame time did not rise with complexity in most bootstrap resamples: the "
                              "score is the top complexity reached, not a change point");
  if (result.skipped_ramps > 0)
    result.warnings.push_back(std::to_string(result.skipped_ramps) +
                              " ramp(s) had no animation frame to fit and were skipped");
  return result;
}

}  // namespace

Size stage_size(const std::string& name) {
  if (name == "small") return kSmall;
  if (name == "medium") return kMedium;
  if (name == "large") return kLarge;
  return parse_size(name);
}

Size stage_size_for_screen(Size screen) {
  if (screen.width >= kLarge.width && screen.height >= kLarge.height) return kLarge;
  if (screen.width >= kMedium.width && screen.height >= kMedium.height) return kMedium;
  return kSmall;
}

std::vector<MarkResult> run_mark_iterations(const MarkOptions& options,
                                            const std::function<void(const Progress&)>& progress) {
  std::vector<std::string> tests = options.tests.empty() ? stages::default_suite() : options.tests;
  for (const auto& t : tests) stages::find_test(t);
  if (!(options.duration_s > 0)) throw UsageError("--duration must be positive");
  if (options.controller != "ramp" && options.controller != "fixed")
    throw UsageError("unknown controller '" + options.controller + "' (use ramp or fixed)");
  if (!options.fps_auto && !(options.fps > 2 && options.fps <= 1000))
    throw UsageError("--fps must be between 3 and 1000, or auto");
  if (options.iterations < 1 || options.iterations > 100) throw UsageError("--iterations must be 1..100");
  if (options.retry_disturbed < 0 || options.retry_disturbed > 10) throw UsageError("--retry-disturbed must be 0..10");

  MarkResult result;
  result.started_at = iso_utc_now();
  result.machine = runner::machine_info();
  const double first_load = load_average();
  std::unique_ptr<runner::Xvfb> xvfb;
  std::string display = options.display;
  Size screen;
  if (display.empty()) {
    screen = options.size ? Size{std::max(options.size->width, kEmbeddedScreen.width),
                                 std::max(options.size->height, kEmbeddedScreen.height)}
                          : kEmbeddedScreen;
    xvfb = runner::Xvfb::start(screen, options.xvfb_log);
    display = xvfb->display();
    result.display_kind = "Xvfb " + display + " (embedded)";
  } else {
    screen = screen_size(display);
    result.display_kind = display;
  }
  result.stage = options.size ? *options.size : stage_size_for_screen(screen);
  result.pacing = options.vsync ? "vsync" : "emulated tick";

  double fps = options.fps;
  if (options.fps_auto) {
    fps = 60;
    if (options.vsync) {
      // Time 300 swaps of an empty window (MARK.md §1).
      auto window = platform::GlWindow::create({result.stage, "pictor mark: frame rate", display, true});
      SwapPacer pacer;
      double first = 0, last = 0;
      for (int i = 0; i <= 300; ++i) {
        const double t = static_cast<double>(pacer.wait_for_frame()) / 1e6;
        if (i == 0) first = t;
        last = t;
        window->swap();
        pacer.frame_submitted();
      }
      fps = pick_frame_rate(first, last, 300);
    } else {
      result.warnings.push_back("--fps auto: the emulated display has no refresh rate to detect; used 60 "
                                "(add --vsync on a real display)");
    }
  }
  result.fps = fps;

  const int count = static_cast<int>(tests.size());
  std::vector<MarkResult> iterations;
  for (int k = 1; k <= options.iterations; ++k) {
    MarkResult it = result;
    if (k > 1) it.started_at = iso_utc_now();
    const double load_start = k == 1 ? first_load : load_average();
    const auto iteration_progress = [&](const Progress& p) {
      if (!progress) return;
      Progress q = p;
      q.iteration = k;
      q.iterations = options.iterations;
      progress(q);
    };
    for (int i = 0; i < count; ++i) {
      // Each attempt of a test is run whole; a disturbed one is run again (disturbance.h).
      std::vector<TestResult> attempts;
      std::vector<AttemptVerdict> verdicts;
      const bool judged = options.controller == "ramp";
      const std::size_t keep = pick_attempt(judged ? options.retry_disturbed : 0, [&] {
        const auto steal_before = cpu_steal_seconds();
        const auto probe_before = cpu_probe_ms();
        const auto memory_before = memory_probe_ms();
        const int attempt = static_cast<int>(attempts.size()) + 1;
        attempts.push_back(run_test(tests[static_cast<std::size_t>(i)], options, fps, it.stage, display, it.machine,
                                    i + 1, count, [&](const Progress& p) {
                                      Progress q = p;
                                      q.attempt = attempt;
                                      iteration_progress(q);
                                    }));
        const auto steal_after = cpu_steal_seconds();
        AttemptVerdict v;
        v.cpu_probe_before_ms = probe_before;
        v.cpu_probe_after_ms = cpu_probe_ms();
        v.memory_probe_before_ms = memory_before;
        v.memory_probe_after_ms = memory_probe_ms();
        if (judged) v.ramp_cv = later_ramps_cv(attempts.back().ramps);
        v.disturbed = v.ramp_cv && *v.ramp_cv > kDisturbedRampCv;
        if (steal_before && steal_after) v.cpu_steal_s = *steal_after - *steal_before;
        attempts.back().verdict = v;
        return v;
      }, verdicts);
      TestResult kept = std::move(attempts[keep]);
      for (std::size_t a = 0; a < attempts.size(); ++a)
        if (a != keep)
          kept.discarded.push_back({attempts[a].verdict, attempts[a].score ? std::optional(attempts[a].score->score)
                                                                           : std::nullopt});
      const auto pct = [](const std::optional<double>& cv) { return fmt::format("{:.0f} %", cv.value_or(0) * 100); };
      if (kept.verdict.disturbed)
        kept.warnings.push_back(fmt::format(
            "disturbed: its later ramps' change points spread by {} (CV; undisturbed runs stay under {:.0f} %) in "
            "all {} attempt(s): something outside the benchmark took the CPU; the least disturbed is kept, rerun "
            "on a quiet machine",
            pct(kept.verdict.ramp_cv), kDisturbedRampCv * 100, attempts.size()));
      else if (!kept.discarded.empty())
        kept.warnings.push_back(fmt::format("run {} times: {} disturbed attempt(s) (later ramps' change points spread "
                                            "by more than {:.0f} %) discarded",
                                            attempts.size(), kept.discarded.size(), kDisturbedRampCv * 100));
      it.tests.push_back(std::move(kept));
    }
    const double load_end = load_average();
    const auto load_json = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    it.machine["load_average_start"] = load_json(load_start);
    it.machine["load_average_end"] = load_json(load_end);
    const double cores = it.machine["cores"].is_number() ? it.machine["cores"].get<double>() : 0;
    if (cores > 0 && std::max(load_start, load_end) > cores)
      it.warnings.push_back("the machine was busy (1-minute load average " +
                            std::to_string(std::max(load_start, load_end)).substr(0, 4) + " on " +
                            std::to_string(static_cast<int>(cores)) +
                            " cores): other processes competed for the CPU and the scores are lower and noisier");
    if (options.controller == "ramp") score_suite(it);
    iterations.push_back(std::move(it));
  }
  return iterations;
}

void score_suite(MarkResult& result) {
  std::vector<TestScore> scores;
  result.excluded_from_suite.clear();
  for (const auto& t : result.tests) {
    if (!t.score) continue;
    if (t.stage_capped) {
      result.excluded_from_suite.push_back(t.name);
      result.warnings.push_back("'" + t.name + "' is left out of the suite's score: its stage capped it (score >= " +
                                std::to_string(t.stage_max.value_or(0)) + ", a floor, not a change point)");
      continue;
    }
    scores.push_back(*t.score);
  }
  if (!scores.empty())
    result.suite = suite_score(scores);
  else if (!result.tests.empty())
    result.warnings.push_back("no suite score: every test was capped by its stage");
}

MarkResult run_mark(const MarkOptions& options, const std::function<void(const Progress&)>& progress) {
  MarkOptions one = options;
  one.iterations = 1;
  return std::move(run_mark_iterations(one, progress).front());
}

}  // namespace pictor::mark
