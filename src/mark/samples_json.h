// JSON forms of mark's data: the `pictor mark score` input {"fps", "samples": [[type, time,
// complexity, frameLength], …]} and the score/regression objects written to stdout and mark.json.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mark/score.h"

namespace pictor::mark {

struct SampleSet {
  double fps = 60;
  std::vector<Sample> samples;
};

// Parses the score input; `path` names the source in errors. Throws pictor::UsageError naming
// the line (for malformed JSON) or the offending row (e.g. "samples[12]: …"); JSON nested more
// than 64 levels deep is refused while parsing. Messages quote at most a few dozen bytes of the
// input, control and non-ASCII bytes escaped, so they stay one short line.
SampleSet parse_sample_set(const std::string& text, const std::string& path);
// Reads and parses a file (UsageError when it cannot be read).
SampleSet read_sample_set(const std::string& path);

nlohmann::json samples_to_json(const std::vector<Sample>& samples);
// {changePoint, s1, t1, s2, t2, n1, n2, error, stdev1, stdev2}; absent parts are null.
nlohmann::json regression_to_json(const Regression& regression);
// {score, lower, upper, regression, …}: the `pictor mark score` output.
nlohmann::json score_to_json(const TestScore& score);

}  // namespace pictor::mark
