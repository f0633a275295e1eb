// The recording wrapper: a driver that forwards every step to the driver it wraps while saving
// each new client frame (downscaled JPEG) and logging every input the wrapped driver sent.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "ic/recording.h"

namespace pictor::ic {

class HumanDriver;

// What the wrapper saw, kept apart from the driver because the session destroys the driver;
// `pictor record` reads it after run_session returns.
struct RecordingLog {
  std::mutex mutex;
  std::vector<RecFrame> frames;
  std::vector<RecInput> inputs;
  std::string failure;          // first error while saving a frame (the session goes on)
  double encode_ms_total = 0;   // time spent downscaling + encoding + writing, for the report
};

class RecordingDriver : public drivers::Driver {
 public:
  // Frames go to REC/frames/NNNNNN.jpg (`rec_dir` must exist with a frames/ folder).
  RecordingDriver(std::unique_ptr<drivers::Driver> inner, std::string rec_dir, Size frame_size, int jpeg_quality,
                  std::shared_ptr<RecordingLog> log);

  std::string spec() const override { return inner_->spec(); }
  std::vector<drivers::InputCode> vocabulary() const override { return inner_->vocabulary(); }
  bool wants_image() const override { return true; }
  void attach(const drivers::SessionContext& session) override { inner_->attach(session); }
  void detach() override;
  drivers::Step step(const drivers::ClientView& view) override;
  nlohmann::json report() const override;

 private:
  void save_frame(const drivers::ClientView& view);
  void take_human_inputs();

  std::unique_ptr<drivers::Driver> inner_;
  HumanDriver* human_;  // inner_ when it is a person's driver (its inputs bypass step()), else null
  bool inner_wants_image_;
  std::string rec_dir_;
  Size frame_size_;
  int quality_;
  std::shared_ptr<RecordingLog> log_;
  std::uint64_t last_frames_seen_ = 0;
};

}  // namespace pictor::ic
