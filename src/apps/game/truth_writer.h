// Ground truth for detector training (DESIGN §9 labels): per frame, the boxes of the objects on
// screen in YOLO txt (one file per frame) and, at the end, one COCO JSON for the whole run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/game/game_sim.h"

namespace pictor::game {

// Writes into `dir`: classes.txt (at once), labels/frame_NNNNNN.txt (per written frame),
// images/frame_NNNNNN.ppm (when images are on) and coco.json (at finish()).
class TruthWriter {
 public:
  // Throws pictor::RunError when the directory cannot be created.
  TruthWriter(std::string dir, std::vector<std::string> classes, int width, int height, int every,
              bool images);
  // Whether frame `frame` (0-based swap index, as frames.csv numbers it) is one to write.
  bool wants(std::int64_t frame) const { return frame % every_ == 0; }
  bool images() const { return images_; }
  void write_frame(std::int64_t frame, const std::vector<LabelledBox>& boxes);
  // rgb: width*height*3 bytes as glReadPixels returns them (bottom row first).
  void write_image(std::int64_t frame, const std::vector<unsigned char>& rgb);
  void finish();

  static std::string frame_name(std::int64_t frame);  // "frame_000123"

 private:
  std::string dir_;
  std::vector<std::string> classes_;
  int width_, height_, every_;
  bool images_;
  nlohmann::json images_json_ = nlohmann::json::array();
  nlohmann::json annotations_ = nlohmann::json::array();
  std::int64_t next_annotation_ = 1;
  bool finished_ = false;
};

}  // namespace pictor::game
