// `pictor mark` end to end: starts the display (a private Xvfb unless one is given), runs each
// test's stage under its controller with a paced frame loop, scores it, and returns everything.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "mark/controller.h"
#include "mark/disturbance.h"
#include "mark/score.h"
#include "mark/test_loop.h"

namespace pictor::mark {

struct MarkOptions {
  std::vector<std::string> tests;  // empty: the default suite (MotionMark 1.3.1's eight)
  std::optional<Size> size;        // stage size; unset: chosen from the screen size
  double fps = 60;
  bool fps_auto = false;           // detect the display's rate (only meaningful with vsync)
  double duration_s = 30;          // test interval (MotionMark: 30 s)
  std::string controller = "ramp";
  double fixed_complexity = 100;   // for --controller fixed
  std::string display;             // empty: start a private Xvfb
  bool vsync = false;              // pace by the display's vsync instead of the emulated tick
  std::string xvfb_log;            // where the embedded Xvfb's output goes (empty: inherited)
  WarmupOptions warmup;
  int iterations = 1;              // the whole list of tests this many times in turn, one display
  // A test whose ramps say it was disturbed (disturbance.h) is run again up to this many times;
  // 0: MotionMark's protocol, every test once.
  int retry_disturbed = 2;
};

// One frame as the harness saw it, for DIR/<test>/frames.csv.
struct FrameRecord {
  int64_t start_ns = 0;    // callback timestamp (the display tick)
  double cpu_ms = 0;       // callback work: controller, scene update, GL calls, swap call
  double swap_call_ms = 0; // time inside the swap call
};

struct TestResult {
  std::string name, title;
  std::string controller;
  std::optional<TestScore> score;  // ramp: MotionMark's score; fixed: unset
  double mean_complexity = 0;      // fixed: the score MotionMark reports for debugging
  std::optional<int64_t> stage_max;  // the stage's own limit, unset when unbounded
  bool stage_max_reached = false;
  bool stage_capped = false;  // reached and still at the target rate there: the score is a floor
  std::vector<RampRecord> ramps;
  std::vector<Sample> controller_samples;  // every frame after warm-up, time order
  std::vector<double> smoothed;            // per controller sample, −1 where none
  std::vector<Sample> scored_samples;      // the rows the score used, sorted by complexity
  std::vector<FrameRecord> frames;         // every frame including warm-up
  long warmup_frames = 0;
  int skipped_ramps = 0;
  // Disturbance (disturbance.h): this attempt's verdict, and the attempts run before it and
  // discarded (or, when every attempt was disturbed, the others), in the order they ran.
  AttemptVerdict verdict;
  struct Discarded {
    AttemptVerdict verdict;
    std::optional<double> score;
  };
  std::vector<Discarded> discarded;
  std::vector<std::string> warnings;
};

struct MarkResult {
  double fps = 60;
  Size stage{};
  std::string display_kind;  // "Xvfb (embedded)" or the display name
  std::string pacing;        // "emulated tick" or "vsync"
  nlohmann::json machine;    // runner::machine_info() + gl_info()
  std::vector<TestResult> tests;
  std::optional<SuiteScore> suite;  // ramp runs only; over the tests not capped by their stage
  std::vector<std::string> excluded_from_suite;  // capped tests: their score is only a floor
  std::string started_at;           // ISO 8601 UTC
  std::vector<std::string> warnings;  // about the whole run (e.g. a busy machine)
};

struct Progress {
  std::string test;
  int index = 0, count = 0;
  double elapsed_s = 0;
  double complexity = 0;
  std::string phase;  // "warm-up", "tiers", "ramp N", "fixed"
  int iteration = 1, iterations = 1;
  int attempt = 1;  // > 1: the test is run again because an earlier attempt was disturbed
};

// The standard stage sizes and MotionMark's choice among them for a screen.
Size stage_size(const std::string& name);  // small|medium|large|WxH; throws UsageError
Size stage_size_for_screen(Size screen);

// Runs the tests options.iterations times in turn on one display: one result per iteration.
// Throws UsageError for bad options, RunError when the display or GL fails.
std::vector<MarkResult> run_mark_iterations(const MarkOptions& options,
                                            const std::function<void(const Progress&)>& progress);
// One iteration (options.iterations is ignored).
MarkResult run_mark(const MarkOptions& options, const std::function<void(const Progress&)>& progress);

// The suite's score over the tests a stage did not cap, with the capped ones named and a warning
// each (a capped test's score is a floor set by the stage, MARK.md §7): MotionMark would average
// it in as if it were a change point.
void score_suite(MarkResult& result);

}  // namespace pictor::mark
