#include "ic/recording_driver.h"

#include "core/clock.h"
#include "core/error.h"
#include "ic/frame_image.h"
#include "ic/human_recorder.h"

namespace pictor::ic {

RecordingDriver::RecordingDriver(std::unique_ptr<drivers::Driver> inner, std::string rec_dir, Size frame_size,
                                 int jpeg_quality, std::shared_ptr<RecordingLog> log)
    : inner_(std::move(inner)), human_(dynamic_cast<HumanDriver*>(inner_.get())),
      inner_wants_image_(inner_->wants_image()), rec_dir_(std::move(rec_dir)),
      frame_size_(frame_size), quality_(jpeg_quality), log_(std::move(log)) {}

void RecordingDriver::save_frame(const drivers::ClientView& view) {
  const std::int64_t t0 = monotonic_ns();
  std::lock_guard lock(log_->mutex);
  const std::size_t index = log_->frames.size();
  RecFrame f{index, view.frame_seen_ns, view.frame, view.tag, rec_frame_file(index)};
  try {
    const RgbImage small = downscale_rgb(*view.image, frame_size_);
    write_file_bytes(rec_dir_ + "/" + f.file, encode_jpeg(small, quality_));
    log_->frames.push_back(std::move(f));
  } catch (const std::exception& e) {
    if (log_->failure.empty()) log_->failure = e.what();
  }
  log_->encode_ms_total += static_cast<double>(monotonic_ns() - t0) * 1e-6;
}

drivers::Step RecordingDriver::step(const drivers::ClientView& view) {
  // The client asks after every capture; a capture counts once however often it asks.
  if (view.image && view.frames_seen != last_frames_seen_ && view.frame_seen_ns >= 0) {
    last_frames_seen_ = view.frames_seen;
    save_frame(view);
  }
  drivers::ClientView inner_view = view;
  if (!inner_wants_image_) inner_view.image = nullptr;
  drivers::Step step = inner_->step(inner_view);
  if (!step.send.empty()) {
    std::lock_guard lock(log_->mutex);
    for (const auto& in : step.send) log_->inputs.push_back({view.now_ns, in});
  }
  take_human_inputs();
  return step;
}

void RecordingDriver::take_human_inputs() {
  // A person's inputs do not pass through step(): the human driver records them itself.
  if (human_) {
    auto taken = human_->take();
    std::lock_guard lock(log_->mutex);
    for (auto& r : taken) log_->inputs.push_back(r);
  }
}

void RecordingDriver::detach() {
  inner_->detach();
  take_human_inputs();
}

nlohmann::json RecordingDriver::report() const {
  std::lock_guard lock(log_->mutex);
  return {{"recorded",
           {{"frames", log_->frames.size()},
            {"inputs", log_->inputs.size()},
            {"encode_ms_mean", log_->frames.empty() ? nlohmann::json(nullptr)
                                                    : nlohmann::json(log_->encode_ms_total / static_cast<double>(log_->frames.size()))},
            {"failure", log_->failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(log_->failure)}}},
          {"driver", inner_->report()}};
}

}  // namespace pictor::ic
