#include "ic/baseline_drivers.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "analysis/rtt.h"
#include "core/error.h"
#include "core/units.h"

namespace pictor::ic {

namespace fs = std::filesystem;

std::vector<TimedInput> relative_inputs(const std::vector<RecInput>& inputs) {
  std::vector<TimedInput> out;
  if (inputs.empty()) return out;
  const std::int64_t t0 = inputs.front().t_ns;
  for (const auto& r : inputs) out.push_back({r.t_ns - t0, r.input});
  return out;
}

std::vector<drivers::InputCode> replay_vocabulary(const Recording& rec) {
  std::vector<drivers::InputCode> v;
  auto add = [&v](drivers::InputCode c) {
    if (std::find(v.begin(), v.end(), c) == v.end()) v.push_back(c);
  };
  for (const auto& name : rec.info.vocabulary) add(drivers::parse_input_code(name));
  for (const auto& r : rec.inputs)
    if (drivers::is_tracked(r.input.kind)) add({!drivers::is_key(r.input.kind), r.input.code});
  return v;
}

ScheduledReplay::ScheduledReplay(std::string spec, std::vector<TimedInput> inputs,
                                 std::vector<drivers::InputCode> vocabulary)
    : spec_(std::move(spec)), inputs_(std::move(inputs)), vocabulary_(std::move(vocabulary)) {}

drivers::Step ScheduledReplay::step(const drivers::ClientView& view) {
  drivers::Step out;
  const std::int64_t now = view.now_ns;
  if (start_ns_ < 0) start_ns_ = now;
  while (next_ < inputs_.size()) {
    const std::int64_t due = start_ns_ + inputs_[next_].offset_ns + shift_ns_;
    if (now < due) {
      out.next_ns = due;
      return out;
    }
    if (gate(next_, view, due) == Gate::wait) {
      out.next_ns = now + kPollNs;
      return out;
    }
    // A late send postpones the rest by as much: the recorded gaps stay as they were.
    const std::int64_t late = now - due;
    waits_ms_.push_back(static_cast<double>(late) * 1e-6);
    shift_ns_ += late;
    out.send.push_back(inputs_[next_].input);
    ++next_;
  }
  out.finished = true;
  out.next_ns = now + 100'000'000;
  return out;
}

nlohmann::json ScheduledReplay::report() const {
  nlohmann::json r{{"inputs", inputs_.size()},
                   {"sent", next_},
                   {"added_delay_ms", static_cast<double>(shift_ns_) * 1e-6},
                   {"wait_ms", analysis::distribution_json(waits_ms_)}};
  add_report(r);
  return r;
}

GatedReplayDriver::GatedReplayDriver(std::string spec, std::vector<TimedInput> inputs,
                                     std::vector<drivers::InputCode> vocabulary,
                                     std::vector<std::optional<std::size_t>> references,
                                     std::vector<GrayThumb> thumbs, GateOptions options)
    : ScheduledReplay(std::move(spec), std::move(inputs), std::move(vocabulary)),
      references_(std::move(references)), thumbs_(std::move(thumbs)), options_(options) {
  if (references_.size() != this->inputs().size()) throw UsageError("gated-replay: one reference per input needed");
}

ScheduledReplay::Gate GatedReplayDriver::gate(std::size_t i, const drivers::ClientView& view,
                                              std::int64_t due_since_ns) {
  const auto ref = references_[i];
  if (!ref || ref == last_gated_reference_) return Gate::send;
  double difference = NAN;
  if (view.image) {
    if (view.frames_seen != thumb_of_capture_ || current_.luma.empty()) {
      current_ = gray_thumbnail(*view.image, {thumbs_[*ref].width, thumbs_[*ref].height});
      thumb_of_capture_ = view.frames_seen;
    }
    difference = mean_abs_difference(current_, thumbs_[*ref]);
  }
  const bool similar = difference <= options_.threshold;
  const bool timed_out = view.now_ns - due_since_ns >= options_.timeout_ns;
  if (!similar && !timed_out) return Gate::wait;
  if (!similar) ++timeouts_;
  ++gated_;
  final_differences_.push_back(difference);
  last_gated_reference_ = ref;
  return Gate::send;
}

void GatedReplayDriver::add_report(nlohmann::json& r) const {
  r["threshold"] = options_.threshold;
  r["timeout_ms"] = static_cast<double>(options_.timeout_ns) * 1e-6;
  r["gated"] = gated_;
  r["timeouts"] = timeouts_;
  r["difference_at_send"] = analysis::distribution_json(final_differences_);
}

SlowMotionDriver::SlowMotionDriver(std::string spec, std::vector<TimedInput> inputs,
                                   std::vector<drivers::InputCode> vocabulary, std::int64_t timeout_ns)
    : ScheduledReplay(std::move(spec), std::move(inputs), std::move(vocabulary)), timeout_ns_(timeout_ns) {}

ScheduledReplay::Gate SlowMotionDriver::gate(std::size_t, const drivers::ClientView& view, std::int64_t due_since_ns) {
  if (view.sent == 0 || (view.tag && *view.tag >= view.sent)) return Gate::send;
  if (view.now_ns - due_since_ns >= timeout_ns_) {
    ++timeouts_;
    return Gate::send;
  }
  return Gate::wait;
}

void SlowMotionDriver::add_report(nlohmann::json& r) const {
  r["timeout_ms"] = static_cast<double>(timeout_ns_) * 1e-6;
  r["timeouts"] = timeouts_;
}

namespace {

// "REC[,k=v...]": the recording directory, then options.
struct ReplayArgs {
  Recording rec;
  std::map<std::string, std::string> options;
};

ReplayArgs parse_replay_args(std::string_view args, std::string_view spec) {
  const auto comma = args.find(',');
  const std::string dir(args.substr(0, comma));
  if (dir.empty()) throw UsageError(fmt::format("driver '{}': give the recording directory (NAME:REC)", spec));
  ReplayArgs a;
  if (comma != std::string_view::npos) a.options = drivers::parse_driver_options(args.substr(comma + 1), spec);
  a.rec = read_recording(dir);
  if (a.rec.inputs.empty()) throw UsageError(fmt::format("driver '{}': {} has no inputs to replay", spec, dir));
  return a;
}

void reject_unknown(const std::map<std::string, std::string>& options, std::initializer_list<std::string_view> known,
                    std::string_view spec) {
  for (const auto& [name, value] : options)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw UsageError(fmt::format("driver '{}': unknown option '{}'", spec, name));
}

std::int64_t timeout_option(const std::map<std::string, std::string>& o, std::int64_t fallback) {
  const auto it = o.find("timeout");
  if (it == o.end()) return fallback;
  const double s = parse_duration_s(it->second);
  if (!(s > 0)) throw UsageError("timeout must be positive");
  return static_cast<std::int64_t>(std::llround(s * 1e9));
}

std::string resolved(std::string_view name, const std::string& dir, const std::string& extra = "") {
  return fmt::format("{}:{}{}", name, fs::absolute(dir).lexically_normal().string(), extra);
}

}  // namespace

std::unique_ptr<drivers::Driver> make_replay_driver(std::string_view args, std::string_view spec) {
  ReplayArgs a = parse_replay_args(args, spec);
  reject_unknown(a.options, {}, spec);
  return std::make_unique<ReplayDriver>(resolved("replay", a.rec.dir), relative_inputs(a.rec.inputs),
                                        replay_vocabulary(a.rec));
}

std::unique_ptr<drivers::Driver> make_gated_replay_driver(std::string_view args, std::string_view spec) {
  ReplayArgs a = parse_replay_args(args, spec);
  reject_unknown(a.options, {"threshold", "timeout"}, spec);
  GateOptions g;
  if (const auto it = a.options.find("threshold"); it != a.options.end()) {
    const auto& t = it->second;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), g.threshold);
    if (ec != std::errc() || end != t.data() + t.size() || !(g.threshold >= 0) || g.threshold > 255)
      throw UsageError(fmt::format("driver '{}': threshold='{}' is not a number in 0..255", spec, t));
  }
  g.timeout_ns = timeout_option(a.options, g.timeout_ns);
  // Reference frame of each input: the last frame seen at or before it was made.
  std::vector<std::optional<std::size_t>> refs;
  std::vector<std::size_t> used;
  std::size_t f = 0;
  for (const auto& in : a.rec.inputs) {
    while (f < a.rec.frames.size() && a.rec.frames[f].seen_ns <= in.t_ns) ++f;
    if (f == 0) {
      refs.emplace_back(std::nullopt);
    } else {
      refs.emplace_back(f - 1);
      if (used.empty() || used.back() != f - 1) used.push_back(f - 1);
    }
  }
  // Decode only the frames some input refers to; thumbs are indexed by recorded frame.
  std::vector<GrayThumb> thumbs(a.rec.frames.size());
  for (std::size_t i : used) {
    const RgbImage img = read_jpeg_file((fs::path(a.rec.dir) / a.rec.frames[i].file).string());
    thumbs[i] = gray_thumbnail(img.view());
  }
  return std::make_unique<GatedReplayDriver>(
      resolved("gated-replay", a.rec.dir, fmt::format(",threshold={:g},timeout={:g}ms", g.threshold,
                                                       static_cast<double>(g.timeout_ns) * 1e-6)),
      relative_inputs(a.rec.inputs), replay_vocabulary(a.rec), std::move(refs), std::move(thumbs), g);
}

std::unique_ptr<drivers::Driver> make_slow_motion_driver(std::string_view args, std::string_view spec) {
  ReplayArgs a = parse_replay_args(args, spec);
  reject_unknown(a.options, {"timeout"}, spec);
  const std::int64_t timeout = timeout_option(a.options, 2'000'000'000);
  return std::make_unique<SlowMotionDriver>(
      resolved("slow-motion", a.rec.dir, fmt::format(",timeout={:g}ms", static_cast<double>(timeout) * 1e-6)),
      relative_inputs(a.rec.inputs), replay_vocabulary(a.rec), timeout);
}

}  // namespace pictor::ic
