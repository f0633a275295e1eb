#include "ic/baseline_drivers.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "analysis/rtt.h"
#include "core/error.h"

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

// The recording named first in the spec ("replay:REC,..."), with something to replay.
Recording recording_of(const options::Values& values, std::string_view spec) {
  Recording rec = read_recording(values.leading());
  if (rec.inputs.empty())
    throw UsageError(fmt::format("driver '{}': {} has no inputs to replay", spec, values.leading()));
  return rec;
}

std::int64_t ns(double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1e9)); }

options::OptionSet replay_set(const std::string& name, std::vector<options::Option> declared) {
  return {"driver '" + name + "'", std::move(declared), ":,", "REC", "the recording directory to replay"};
}

std::string resolved(std::string_view name, const std::string& dir, const std::string& extra = "") {
  return fmt::format("{}:{}{}", name, fs::absolute(dir).lexically_normal().string(), extra);
}

// Reference frame of each input: the last frame seen at or before it was made (nullopt: none).
std::vector<std::optional<std::size_t>> reference_frames(const Recording& rec) {
  std::vector<std::optional<std::size_t>> refs;
  std::size_t f = 0;
  for (const auto& in : rec.inputs) {
    while (f < rec.frames.size() && rec.frames[f].seen_ns <= in.t_ns) ++f;
    refs.emplace_back(f == 0 ? std::nullopt : std::optional<std::size_t>(f - 1));
  }
  return refs;
}

std::unique_ptr<drivers::Driver> make_gated_replay(const options::Values& values, std::string_view spec) {
  const Recording rec = recording_of(values, spec);
  GateOptions g;
  g.threshold = values.number("threshold");
  g.timeout_ns = ns(values.number("timeout"));
  std::vector<std::optional<std::size_t>> refs = reference_frames(rec);
  // Decode only the frames some input refers to; thumbs are indexed by recorded frame.
  std::vector<GrayThumb> thumbs(rec.frames.size());
  for (std::size_t i = 0; i < refs.size(); ++i) {
    if (!refs[i] || (i > 0 && refs[i - 1] == refs[i])) continue;
    const RgbImage img = read_jpeg_file((fs::path(rec.dir) / rec.frames[*refs[i]].file).string());
    thumbs[*refs[i]] = gray_thumbnail(img.view());
  }
  return std::make_unique<GatedReplayDriver>(
      resolved("gated-replay", rec.dir, fmt::format(",threshold={:g},timeout={:g}ms", g.threshold,
                                                     static_cast<double>(g.timeout_ns) * 1e-6)),
      relative_inputs(rec.inputs), replay_vocabulary(rec), std::move(refs), std::move(thumbs), g);
}

// A timeout must be positive: 0 would send every gated input at once.
constexpr double kMinTimeoutS = 1e-6;

}  // namespace

drivers::DriverInfo replay_driver_info() {
  return {"replay", "a recording's inputs at their recorded times", replay_set("replay", {}),
          [](const options::Values& values, std::string_view spec) -> std::unique_ptr<drivers::Driver> {
            const Recording rec = recording_of(values, spec);
            return std::make_unique<ReplayDriver>(resolved("replay", rec.dir), relative_inputs(rec.inputs),
                                                  replay_vocabulary(rec));
          }};
}

drivers::DriverInfo gated_replay_driver_info() {
  return {"gated-replay", "a recording's inputs, each waiting for a frame like the one it was made on (DeskBench)",
          replay_set("gated-replay",
                     {options::number("threshold", "mean absolute difference of 64x36 thumbnails that counts as similar")
                          .within(0, 255)
                          .or_default("12"),
                      options::duration("timeout", "after this long it sends anyway")
                          .within(kMinTimeoutS, kMaxDurationS)
                          .or_default("1s")}),
          make_gated_replay};
}

drivers::DriverInfo slow_motion_driver_info() {
  return {"slow-motion", "a recording's inputs, one in flight at a time",
          replay_set("slow-motion", {options::duration("timeout", "without a response frame it sends anyway after this long")
                                         .within(kMinTimeoutS, kMaxDurationS)
                                         .or_default("2s")}),
          [](const options::Values& values, std::string_view spec) -> std::unique_ptr<drivers::Driver> {
            const Recording rec = recording_of(values, spec);
            const std::int64_t timeout = ns(values.number("timeout"));
            return std::make_unique<SlowMotionDriver>(
                resolved("slow-motion", rec.dir, fmt::format(",timeout={:g}ms", static_cast<double>(timeout) * 1e-6)),
                relative_inputs(rec.inputs), replay_vocabulary(rec), timeout);
          }};
}

}  // namespace pictor::ic
