// A test's score from its samples (MARK.md §4: trim, regression, 2500-fold bootstrap) and the suite
// score (§5). Pure arithmetic on recorded samples: this is what `pictor mark score` checks.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mark/regression.h"

namespace pictor::mark {

// Kind of frame a sample describes: the complexity changed in it (mutation) or not (animation).
enum class FrameType { Mutation, Animation };

// One controller sample as MotionMark records it.
struct Sample {
  FrameType type = FrameType::Animation;
  double time = 0;          // ms
  double complexity = 0;
  double frame_length = 0;  // ms; the interval that ended at `time`, drawn at `complexity`
};

struct BootstrapOptions {
  int iterations = 2500;
  double confidence = 0.8;  // MotionMark 1.3.1 reports the central 80 %
};

struct TestScore {
  double score = 0;  // bootstrap median of the change point
  double lower = 0;  // bootstrap confidence bounds
  double upper = 0;
  Regression regression;  // the fit on all trimmed samples (not resampled)
  double min_complexity = 0, max_complexity = 0;  // complexities at the trim bounds
  long samples = 0;             // rows scored (mutation rows included)
  long animation_samples = 0;   // rows the regression used (the trimmed animation rows)
  long bootstrap_rows = 0;      // rows the bootstrap resamples: all trimmed rows, both frame types
  // Share of bootstrap iterations whose segment 2 sloped downwards (t2 < 0), where the estimate
  // is the resample's top complexity rather than a change point: a hint the stage never slowed.
  double negative_slope_share = 0;
};

// Scores samples at the target frame rate. The samples are stably sorted by complexity first (so
// time-ordered or already-sorted rows give the same result). Throws pictor::UsageError where
// MotionMark 1.3.1 cannot score them: no animation rows to fit, or a bootstrap resample that drew
// no animation row between its trim bounds (sets with few animation rows among many mutations).
TestScore score_samples(std::vector<Sample> samples, double fps, const BootstrapOptions& options = {});

// True when a stage that reached its maximum complexity was still at the target rate there: the
// fit predicts a frame length under 1000/(fps − 2) at the maximum. The score is then a floor set
// by the stage, not the machine's capacity (MARK.md §7). A stage that reached its maximum but had
// slowed down before it gives a genuine change point and is not capped.
bool capped_by_stage(const TestScore& score, double stage_max, double fps);

struct SuiteScore {
  double score = 0, lower = 0, upper = 0;
  double spread = 0;  // largest_deviation(lower, score, upper), e.g. 0.031 for ±3.1 %
};

// Geometric mean of the tests' scores and of their bounds (one iteration).
SuiteScore suite_score(std::span<const TestScore> tests);

// Display form "SCORE @ FPSfps ±X %" (scores at different frame rates are not comparable).
std::string format_suite_score(const SuiteScore& suite, double fps);

}  // namespace pictor::mark
