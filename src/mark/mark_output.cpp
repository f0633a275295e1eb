#include "mark/mark_output.h"

#include <filesystem>

#include <fmt/format.h>

#include "core/error.h"
#include "core/files.h"
#include "mark/samples_json.h"
#include "mark/stats.h"
#include "core/json_util.h"
#include "analysis/stats.h"

namespace pictor::mark {
namespace {

using nlohmann::json;


json test_to_json(const TestResult& t, double fps) {
  json j;
  j["name"] = t.name;
  j["title"] = t.title;
  j["controller"] = t.controller;
  if (t.score) {
    j["score"] = t.score->score;
    j["lower"] = t.score->lower;
    j["upper"] = t.score->upper;
    j["spread"] = number_or_null(largest_deviation(t.score->lower, t.score->score, t.score->upper));
    json fit = regression_to_json(t.score->regression);
    // The fit's residual per sample: large on vsync-quantised data, where the slope model is poor.
    fit["residualMs"] = t.score->regression.error && t.score->animation_samples > 0
                            ? number_or_null(std::sqrt(*t.score->regression.error /
                                                       static_cast<double>(t.score->animation_samples)))
                            : json(nullptr);
    j["regression"] = fit;
    j["minComplexity"] = t.score->min_complexity;
    j["maxComplexity"] = t.score->max_complexity;
    j["negativeSlopeShare"] = t.score->negative_slope_share;
  } else {
    // The fixed controller measures a frame rate at a given complexity, not a capacity.
    j["score"] = t.mean_complexity;
    j["lower"] = nullptr;
    j["upper"] = nullptr;
    RunningStats frame;
    for (std::size_t i = 1; i < t.controller_samples.size(); ++i) frame.sample(t.controller_samples[i].frame_length);
    j["meanFrameLengthMs"] = frame.count() ? json(frame.mean()) : json(nullptr);
    j["frameLengthStdevMs"] = frame.count() > 1 ? json(frame.stdev()) : json(nullptr);
  }
  j["stageMax"] = t.stage_max ? json(*t.stage_max) : json(nullptr);
  j["stageMaxReached"] = t.stage_max_reached;
  j["stageCapped"] = t.stage_capped;
  json ramps = json::array();
  for (const auto& r : t.ramps)
    ramps.push_back({{"startIndex", r.start_index}, {"endIndex", r.end_index}, {"regression", regression_to_json(r.regression)}});
  j["ramps"] = ramps;
  j["skippedRamps"] = t.skipped_ramps;
  const auto verdict_json = [](const AttemptVerdict& v) {
    return json{{"laterRampsCv", v.ramp_cv ? json(*v.ramp_cv) : json(nullptr)},
                {"disturbed", v.disturbed},
                {"cpuStealS", v.cpu_steal_s ? json(*v.cpu_steal_s) : json(nullptr)},
                {"cpuProbeMs", {{"before", v.cpu_probe_before_ms ? json(*v.cpu_probe_before_ms) : json(nullptr)},
                                {"after", v.cpu_probe_after_ms ? json(*v.cpu_probe_after_ms) : json(nullptr)}}},
                {"memoryProbeMs",
                 {{"before", v.memory_probe_before_ms ? json(*v.memory_probe_before_ms) : json(nullptr)},
                  {"after", v.memory_probe_after_ms ? json(*v.memory_probe_after_ms) : json(nullptr)}}}};
  };
  json disturbance = verdict_json(t.verdict);
  disturbance["threshold"] = kDisturbedRampCv;
  json discarded = json::array();
  for (const auto& d : t.discarded) {
    json a = verdict_json(d.verdict);
    a["score"] = d.score ? json(*d.score) : json(nullptr);
    discarded.push_back(a);
  }
  disturbance["discardedAttempts"] = discarded;
  j["disturbance"] = disturbance;
  json controller = json::array();
  for (std::size_t i = 0; i < t.controller_samples.size(); ++i) {
    const auto& s = t.controller_samples[i];
    const double smoothed = i < t.smoothed.size() ? t.smoothed[i] : -1;
    controller.push_back({s.type == FrameType::Animation ? "a" : "m", s.time, s.complexity, s.frame_length,
                          smoothed < 0 ? json(nullptr) : json(smoothed)});
  }
  j["samples"] = {{"fields", {"type", "time", "complexity", "frameLength", "smoothedFrameLength"}},
                  {"controller", controller},
                  {"scored", samples_to_json(t.scored_samples)}};
  j["fps"] = fps;
  j["frames"] = t.frames.size();
  j["warmupFrames"] = t.warmup_frames;
  j["framesCsv"] = t.name + "/frames.csv";
  j["framesCsvSchema"] = 1;  // the columns of a session's frames.csv (docs/session-files.md)
  j["warnings"] = t.warnings;
  return j;
}

void write_file(const std::filesystem::path& path, const std::string& text) { files::write_file(path, text); }

}  // namespace

json mark_to_json(const MarkResult& r, const MarkOptions& o) {
  json j;
  j["schema"] = kMarkSchema;
  j["tool"] = "pictor mark";
  j["method"] = "MotionMark 1.3.1";
  j["started_at"] = r.started_at;
  j["options"] = {{"fps", r.fps},
                  {"fpsAuto", o.fps_auto},
                  {"durationS", o.duration_s},
                  {"controller", o.controller},
                  {"stage", {{"width", r.stage.width}, {"height", r.stage.height}}},
                  {"display", r.display_kind},
                  {"pacing", r.pacing},
                  {"warmupMs", o.warmup.length_ms},
                  {"warmupFrames", o.warmup.frames},
                  {"kalman", {{"processError", 1}, {"measurementError", 4}}},
                  {"bootstrap", {{"iterations", 2500}, {"confidence", 0.8}}}};
  if (o.controller == "fixed") j["options"]["complexity"] = o.fixed_complexity;
  j["machine"] = r.machine;
  j["warnings"] = r.warnings;
  json tests = json::array();
  for (const auto& t : r.tests) tests.push_back(test_to_json(t, r.fps));
  j["tests"] = tests;
  if (r.suite)
    j["suite"] = {{"score", r.suite->score}, {"lower", r.suite->lower}, {"upper", r.suite->upper},
                  {"spread", number_or_null(r.suite->spread)}, {"fps", r.fps},
                  {"display", format_suite_score(*r.suite, r.fps)}, {"excluded", r.excluded_from_suite}};
  else
    j["suite"] = nullptr;
  return j;
}

std::string frames_csv(const TestResult& t) {
  // Frame i is drawn in callback i and shown at the next tick, when callback i+1 starts: that
  // tick is its present time, and the interval to it its frame time (the length MotionMark pairs
  // with the frame's complexity). The last callback has no next tick and is not listed.
  std::string out = "frame,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n";
  for (std::size_t i = 0; i + 1 < t.frames.size(); ++i) {
    const auto& f = t.frames[i];
    const int64_t present = t.frames[i + 1].start_ns;
    out += fmt::format("{},0,{},{:.4f},{:.4f},{:.4f},,,\n", i, present,
                       static_cast<double>(present - f.start_ns) / 1e6, f.cpu_ms, f.swap_call_ms);
  }
  return out;
}

void write_mark_outputs(const std::string& dir, const MarkResult& result, const MarkOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw RunError("cannot create " + dir + ": " + ec.message());
  for (const auto& t : result.tests) {
    const fs::path test_dir = fs::path(dir) / t.name;
    fs::create_directories(test_dir, ec);
    if (ec) throw RunError("cannot create " + test_dir.string() + ": " + ec.message());
    write_file(test_dir / "frames.csv", frames_csv(t));
    const json samples = {{"fps", result.fps}, {"samples", samples_to_json(t.scored_samples)}};
    write_file(test_dir / "samples.json", samples.dump() + "\n");
  }
  write_file(fs::path(dir) / "mark.json", mark_to_json(result, options).dump(1) + "\n");
}

std::string format_mark_table(const MarkResult& r) {
  std::string out = fmt::format("{:<14} {:>10} {:>10} {:>10} {:>8}  {}\n", "test", "score", "lower", "upper", "±%", "notes");
  for (const auto& t : r.tests) {
    std::string notes;
    if (t.stage_capped)
      notes += fmt::format("capped by the stage: >= {}, not in the suite score; ", t.stage_max.value_or(0));
    else if (t.stage_max_reached)
      notes += "stage maximum reached (slowed before it); ";
    if (t.verdict.disturbed)
      notes += "disturbed (see warning); ";
    else if (!t.discarded.empty())
      notes += fmt::format("rerun: {} disturbed attempt(s) discarded; ", t.discarded.size());
    if (t.score) {
      const double spread = largest_deviation(t.score->lower, t.score->score, t.score->upper) * 100;
      out += fmt::format("{:<14} {:>10.2f} {:>10.2f} {:>10.2f} {:>8.2f}  {}\n", t.title, t.score->score, t.score->lower,
                         t.score->upper, spread, notes);
    } else {
      out += fmt::format("{:<14} {:>10.2f} {:>10} {:>10} {:>8}  {}mean complexity (fixed)\n", t.title, t.mean_complexity,
                         "-", "-", "-", notes);
    }
  }
  if (r.suite) out += fmt::format("\nScore: {}\n", format_suite_score(*r.suite, r.fps));
  out += fmt::format("Stage {}x{} on {}, {} pacing\n", r.stage.width, r.stage.height, r.display_kind, r.pacing);
  for (const auto& t : r.tests)
    for (const auto& w : t.warnings) out += fmt::format("warning: {}: {}\n", t.name, w);
  for (const auto& w : r.warnings) out += fmt::format("warning: {}\n", w);
  return out;
}

const char* const kRunToRunText =
    "run to run: Student's t 95 % interval of the mean over the iterations (what another run of the whole "
    "suite may give); bootstrap: MotionMark's 80 % interval of one iteration's change point (within a run)";

namespace {

json mean_json(const std::vector<double>& values) {
  const analysis::stats::MeanInterval m = analysis::stats::mean_t_interval(values);
  return {{"score", m.mean},
          {"lower", number_or_null(m.lo)},
          {"upper", number_or_null(m.hi)},
          {"spread", number_or_null(largest_deviation(m.lo, m.mean, m.hi))},
          {"sd", number_or_null(m.sd)},
          {"cv", number_or_null(m.sd / m.mean)},
          {"scores", values}};
}

}  // namespace

json iterations_to_json(const std::vector<MarkResult>& its, const MarkOptions& o) {
  if (its.empty()) throw RunError("no iteration ran");
  json j = mark_to_json(its.front(), o);  // schema, tool, method, options, machine
  j["options"]["iterations"] = its.size();
  j["intervals"] = kRunToRunText;
  json warnings = json::array(), list = json::array();
  for (std::size_t k = 0; k < its.size(); ++k) {
    for (const auto& w : its[k].warnings) warnings.push_back(fmt::format("iteration {}: {}", k + 1, w));
    json tests = json::array();
    for (const auto& t : its[k].tests)
      tests.push_back({{"name", t.name}, {"score", t.score ? json(t.score->score) : json(t.mean_complexity)},
                       {"lower", t.score ? json(t.score->lower) : json(nullptr)},
                       {"upper", t.score ? json(t.score->upper) : json(nullptr)}, {"stageCapped", t.stage_capped},
                       {"disturbed", t.verdict.disturbed}, {"discardedAttempts", t.discarded.size()}});
    const MarkResult& r = its[k];
    list.push_back({{"index", k + 1},
                    {"dir", fmt::format("iteration-{}", k + 1)},
                    {"started_at", r.started_at},
                    {"load_average_start", r.machine.value("load_average_start", json())},
                    {"load_average_end", r.machine.value("load_average_end", json())},
                    {"tests", tests},
                    {"suite", r.suite ? json{{"score", r.suite->score}, {"lower", r.suite->lower}, {"upper", r.suite->upper},
                                             {"excluded", r.excluded_from_suite}}
                                      : json(nullptr)}});
  }
  j["warnings"] = warnings;
  j["iterations"] = list;
  json tests = json::array();
  for (std::size_t i = 0; i < its.front().tests.size(); ++i) {
    std::vector<double> scores;
    for (const auto& r : its) {
      const TestResult& t = r.tests[i];
      scores.push_back(t.score ? t.score->score : t.mean_complexity);
    }
    json t = mean_json(scores);
    t["name"] = its.front().tests[i].name;
    t["title"] = its.front().tests[i].title;
    tests.push_back(t);
  }
  j["tests"] = tests;
  std::vector<double> suites;
  for (const auto& r : its)
    if (r.suite) suites.push_back(r.suite->score);
  if (suites.size() == its.size()) {
    json suite = mean_json(suites);
    suite["fps"] = its.front().fps;
    suite["display"] = fmt::format("{:.2f} @ {:g}fps, run to run {}", suite["score"].get<double>(), its.front().fps,
                                   suite["spread"].is_number() ? fmt::format("±{:.2f} %", suite["spread"].get<double>() * 100)
                                                               : std::string("unknown"));
    j["suite"] = suite;
  } else {
    j["suite"] = nullptr;  // an iteration without a suite score (all capped, or --controller fixed)
  }
  return j;
}

void write_iteration_outputs(const std::string& dir, const std::vector<MarkResult>& its, const MarkOptions& o,
                             const json& summary) {
  for (std::size_t k = 0; k < its.size(); ++k)
    write_mark_outputs((std::filesystem::path(dir) / fmt::format("iteration-{}", k + 1)).string(), its[k], o);
  write_file(std::filesystem::path(dir) / "mark.json", summary.dump(1) + "\n");
}

std::string format_iterations_table(const json& summary) {
  std::string out = fmt::format("{:<14}", "test");
  for (std::size_t k = 0; k < summary["iterations"].size(); ++k) out += fmt::format(" {:>10}", fmt::format("#{}", k + 1));
  out += fmt::format(" {:>10} {:>7} {:>23}\n", "mean", "CV %", "run to run 95 %");
  const auto row = [&](const std::string& name, const json& m) {
    std::string line = fmt::format("{:<14}", name);
    for (const auto& v : m["scores"]) line += fmt::format(" {:>10.2f}", v.get<double>());
    const std::string cv = m["cv"].is_number() ? fmt::format("{:.1f}", m["cv"].get<double>() * 100) : "-";
    line += fmt::format(" {:>10.2f} {:>7} {:>23}\n", m["score"].get<double>(), cv,
                        m["lower"].is_number() ? fmt::format("[{:.2f}, {:.2f}]", m["lower"].get<double>(), m["upper"].get<double>()) : "-");
    return line;
  };
  for (const auto& t : summary["tests"]) out += row(t["title"].get<std::string>(), t);
  if (summary["suite"].is_object()) out += row("Suite", summary["suite"]);
  out += "\nEach iteration's own table, with the bootstrap intervals, is in iteration-K/mark.json.\n";
  out += fmt::format("Intervals: {}.\n", kRunToRunText);
  for (const auto& w : summary["warnings"]) out += fmt::format("warning: {}\n", w.get<std::string>());
  return out;
}

}  // namespace pictor::mark
