#include "client/client_core.h"

#include <fmt/format.h>

#include <algorithm>

#include "client/x_connection.h"
#include "core/error.h"
#include "tag/marker_code.h"

namespace pictor::client {

namespace {

// Shortest time a driver may ask to be called again after an empty answer, so a driver that
// keeps asking for "now" cannot spin the loop.
constexpr std::int64_t kMinDriverPeriodNs = 100'000;

}  // namespace

ClientCore::ClientCore(std::unique_ptr<drivers::Driver> driver, ClientTransport& transport)
    : driver_(std::move(driver)), transport_(transport) {
  stats_.driver = driver_->spec();
  wants_image_ = driver_->wants_image();
}

void ClientCore::send(const drivers::Input& in) {
  if (!drivers::is_tracked(in.kind)) {
    transport_.send_motion(in);
    ++stats_.motions_sent;
    return;
  }
  const bool button = !drivers::is_key(in.kind);
  const bool press = drivers::is_press(in.kind);
  const auto key = std::make_pair(button, in.code);
  // X generates no event for releasing what is not down, and may fold a second press of a held
  // key into auto-repeat: either would put the client's count of tracked events out of step with
  // the app's, so such inputs are not sent.
  if (press == held_.contains(key)) {
    ++skipped_inputs_;
    return;
  }
  const ClientTransport::Sent sent = transport_.send_tracked(in, button, press);
  ++stats_.inputs_sent;
  files->input(stats_.inputs_sent, drivers::input_kind_name(in.kind), sent.detail, sent.sent_ns,
               drivers::input_code_name(button, in.code));
  if (press) {
    held_.insert(key);
  } else {
    held_.erase(key);
  }
}

void ClientCore::release_held() {
  const auto still_held = held_;
  for (const auto& [button, code] : still_held) {
    const auto kind = button ? drivers::InputKind::button_release : drivers::InputKind::key_release;
    send(drivers::Input{kind, code});
  }
}

MarkerTracker::Reading ClientCore::frame_seen(const std::optional<tag::MarkerPayload>& payload, std::int64_t seen_ns,
                                              double decode_us, double capture_us) {
  if (stats_.inputs_sent == 0) {
    if (payload && last_idle_tag_ == payload->tag)
      foreign_reads_ = tag::unwrap_counter(payload->tag, tag::kTagBits, 0);
    last_idle_tag_ = payload ? std::optional<std::uint32_t>(payload->tag) : std::nullopt;
  }
  // A tag beyond what the app can have read is a false read; the app can have read every input
  // this client sent plus the foreign ones.
  const MarkerTracker::Reading r = tracker_.update(payload, stats_.inputs_sent + foreign_reads_);
  if (r.implausible) ++implausible_;
  ++stats_.captures;
  if (r.tag) ++stats_.markers_read;
  files->frame(seen_ns, r.tag, r.frame, decode_us, capture_us);
  last_seen_ns_ = seen_ns;
  return r;
}

void ClientCore::app_draws(double warmup_s, std::int64_t now) {
  if (awaiting_first_frame()) warmup_until_ns_ = now + static_cast<std::int64_t>(warmup_s * 1e9);
}

void ClientCore::start_waiting(double first_frame_timeout_s, std::int64_t now) {
  first_frame_timeout_ns_ = static_cast<std::int64_t>(first_frame_timeout_s * 1e9);
  first_frame_deadline_ns_ = now + first_frame_timeout_ns_;
}

bool LauncherHold::holds() {
  if (!x_ || x_->lost()) return false;
  Display* dpy = x_->display();
  if (selection_ == None) selection_ = XInternAtom(dpy, "_PICTOR_LAUNCH_STARTING", False);
  return XGetSelectionOwner(dpy, selection_) != None;
}

void ClientCore::check_window(bool launcher_holds) {
  window_check_pending_ = launcher_holds;
  if (launcher_holds) return;
  if (const std::string problem = transport_.window_problem(); !problem.empty()) throw RunError(problem);
}

void ClientCore::turn(std::int64_t now, bool launcher_holds, bool finish_requested, const std::string& no_first_frame) {
  if (window_check_pending_ && !launcher_holds) {
    window_check_pending_ = false;
    if (const std::string problem = transport_.window_problem(); !problem.empty())
      throw RunError(problem + " when pictor-launch let go of the inputs");
  }
  if (!driving_ && launcher_holds) {
    // Start afresh once the launcher lets go: the next frame, then the warm-up.
    if (held_since_ns_ < 0) held_since_ns_ = now;
    warmup_until_ns_ = -1;
    first_frame_deadline_ns_ = now + first_frame_timeout_ns_;
  } else if (held_since_ns_ >= 0) {
    stats_.notes.push_back(fmt::format("inputs held for {:.1f} s while pictor-launch started the game",
                                       static_cast<double>(now - held_since_ns_) * 1e-9));
    held_since_ns_ = -2;  // noted once
  }
  if (!driving_ && warmup_until_ns_ >= 0 && now >= warmup_until_ns_) {
    driving_ = true;
    next_step_ns_ = now;
  }
  if (awaiting_first_frame() && now >= first_frame_deadline_ns_) {
    driving_ = true;
    next_step_ns_ = now;
    stats_.notes.push_back(no_first_frame);
  }
  if (finish_requested && !driver_finished_) {
    release_held();
    driver_finished_ = true;
  }
  if (driving_ && !driver_finished_ && now >= next_step_ns_) drive(now);
}

void ClientCore::drive_now(std::int64_t now) {
  if (driving_) drive(now);
}

void ClientCore::drive(std::int64_t now) {
  if (driver_finished_) return;
  drivers::ClientView view;
  view.now_ns = now;
  view.sent = stats_.inputs_sent;
  view.tag = tracker_.tag();
  view.frame = tracker_.frame();
  view.frame_seen_ns = last_seen_ns_;
  view.frames_seen = stats_.captures;
  std::optional<tag::ImageView> image;
  if (wants_image_ && last_seen_ns_ >= 0) {
    image = transport_.window_image();
    if (image) view.image = &*image;
  }
  const drivers::Step step = driver_->step(view);
  for (const drivers::Input& in : step.send) send(in);
  next_step_ns_ = std::max(step.next_ns, now + kMinDriverPeriodNs);
  driver_finished_ = step.finished;
}

std::int64_t ClientCore::wait_ns(std::int64_t now, std::int64_t max_ns) const {
  std::int64_t wait = max_ns;
  if (driving_ && !driver_finished_) wait = std::min(wait, next_step_ns_ - now);
  if (!driving_) wait = std::min(wait, (warmup_until_ns_ >= 0 ? warmup_until_ns_ : first_frame_deadline_ns_) - now);
  return std::max<std::int64_t>(wait, 0);
}

void ClientCore::detach_driver() {
  try {
    driver_->detach();
    stats_.driver_report = driver_->report();
  } catch (const std::exception& e) {
    stats_.notes.push_back(std::string("the driver's report failed: ") + e.what());
  }
}

void ClientCore::add_stop_notes() {
  if (skipped_inputs_ > 0)
    stats_.notes.push_back(fmt::format(
        "{} driver input(s) not sent: a press of what was held or a release of what was not", skipped_inputs_));
  if (foreign_reads_ > 0)
    stats_.notes.push_back(fmt::format(
        "the app had read {} tracked event(s) before the first input (start-up inputs): its tags run "
        "that far ahead of the inputs sent",
        foreign_reads_));
  if (implausible_ > 0)
    stats_.notes.push_back(fmt::format(
        "{} marker read(s) rejected: tag beyond the inputs sent (a false read of unmarked content)", implausible_));
}

}  // namespace pictor::client
