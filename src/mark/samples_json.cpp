#include "mark/samples_json.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/error.h"
#include "core/files.h"
#include "core/text.h"

namespace pictor::mark {
namespace {

using nlohmann::json;

// Deepest nesting a samples file may have; it needs 3 (object, samples, row). Deeper input is
// refused while parsing, before it can build a tree that is costly to print or free.
constexpr int kMaxDepth = 64;

std::string quote(const json& v) {
  return quote_for_error(v.dump(-1, ' ', false, json::error_handler_t::replace), 40);
}

struct TooDeep {};

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json optional_count(const std::optional<long>& v) { return v ? json(*v) : json(nullptr); }

// nlohmann reports a byte offset; users need the line.
std::size_t line_of(const std::string& text, std::size_t byte) {
  byte = std::min(byte, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(byte), '\n'));
}

FrameType parse_type(const json& v, const std::string& where) {
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "a" || s == "animation") return FrameType::Animation;
    if (s == "m" || s == "mutation") return FrameType::Mutation;
  }
  throw UsageError(where + ": frame type must be \"a\" (animation) or \"m\" (mutation), got " + quote(v));
}

double parse_number(const json& v, const std::string& where, const char* what) {
  if (!v.is_number()) throw UsageError(where + ": " + what + " must be a number, got " + quote(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw UsageError(where + ": " + what + " must be finite");
  return d;
}

}  // namespace

SampleSet parse_sample_set(const std::string& text, const std::string& path) {
  const std::string origin = quote_for_error(path, 200);
  const auto limit_depth = [](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxDepth)
      throw TooDeep{};
    return true;
  };
  json doc;
  try {
    doc = json::parse(text, limit_depth);
  } catch (const json::parse_error& e) {
    throw UsageError(origin + ":" + std::to_string(line_of(text, e.byte)) + ": malformed JSON (" +
                     quote_for_error(e.what(), 160) + ")");
  } catch (const json::exception& e) {
    // A number beyond a double's range ("1E400") is out_of_range, not parse_error, and carries no
    // position (found by fuzz/fuzz_mark_samples.cpp: it escaped as a non-UsageError).
    throw UsageError(origin + ": malformed JSON (" + quote_for_error(e.what(), 160) + ")");
  } catch (const TooDeep&) {
    throw UsageError(origin + ": JSON nested more than " + std::to_string(kMaxDepth) +
                     " levels deep (a samples file has 3)");
  }
  if (!doc.is_object()) throw UsageError(origin + ": expected a JSON object {\"fps\", \"samples\"}");
  SampleSet set;
  if (doc.contains("fps")) {
    set.fps = parse_number(doc["fps"], origin, "fps");
    if (set.fps <= 2) throw UsageError(origin + ": fps must be above 2, got " + quote(doc["fps"]));
  }
  if (!doc.contains("samples") || !doc["samples"].is_array())
    throw UsageError(origin + ": missing array \"samples\" of [type, time, complexity, frameLength]");
  const json& rows = doc["samples"];
  set.samples.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string where = origin + ": samples[" + std::to_string(i) + "]";
    const json& row = rows[i];
    if (!row.is_array() || row.size() != 4)
      throw UsageError(where + ": expected [type, time, complexity, frameLength], got " + quote(row));
    Sample s;
    s.type = parse_type(row[0], where);
    s.time = parse_number(row[1], where, "time");
    s.complexity = parse_number(row[2], where, "complexity");
    s.frame_length = parse_number(row[3], where, "frameLength");
    set.samples.push_back(s);
  }
  if (set.samples.empty()) throw UsageError(origin + ": \"samples\" is empty");
  return set;
}

SampleSet read_sample_set(const std::string& path) {
  // Refuses a device (/dev/zero never ends) and a file too large to hold, naming it.
  return parse_sample_set(files::read_input_file(path), path);
}

json samples_to_json(const std::vector<Sample>& samples) {
  json rows = json::array();
  for (const auto& s : samples)
    rows.push_back({s.type == FrameType::Animation ? "a" : "m", s.time, s.complexity, s.frame_length});
  return rows;
}

json regression_to_json(const Regression& r) {
  return {{"changePoint", r.change_point}, {"s1", r.s1}, {"t1", r.t1}, {"s2", r.s2}, {"t2", r.t2},
          {"n1", optional_count(r.n1)}, {"n2", optional_count(r.n2)}, {"error", optional_number(r.error)},
          {"stdev1", optional_number(r.stdev1)}, {"stdev2", optional_number(r.stdev2)}};
}

json score_to_json(const TestScore& s) {
  return {{"score", s.score},
          {"lower", s.lower},
          {"upper", s.upper},
          {"regression", regression_to_json(s.regression)},
          {"minComplexity", s.min_complexity},
          {"maxComplexity", s.max_complexity},
          {"samples", s.samples},
          {"animationSamples", s.animation_samples},
          {"bootstrapRows", s.bootstrap_rows},
          {"negativeSlopeShare", s.negative_slope_share}};
}

}  // namespace pictor::mark
