// A trained intelligent-client model loaded for inference: detect objects on one downscaled
// frame, then step the LSTM policy (which keeps its hidden state) to the next key/pointer action.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ic/features.h"
#include "ic/manifest.h"

namespace pictor::ic {

struct PolicyOutput {
  std::vector<float> held_probability;   // per vocabulary entry
  std::vector<float> onset_probability;  // per vocabulary entry: pressed in this frame's interval
  float move_probability = 0;            // the pointer moves in this frame's interval
  // Pointer motion as a fraction of the window (dx / width, dy / height), learnt on frames with
  // a move (so: the move to make when one is made); 0 without motion_scale.
  float dx = 0, dy = 0;
  // The pointer-target head (pointer_target.h): a probability per feature slot, then "no
  // object" (a softmax; they add up to 1). Which object the next pointer event goes to.
  std::vector<float> target_probability;
};

class Model {
 public:
  // Throws UsageError with one line naming the file for a missing, truncated, garbage or
  // mismatched model directory (libtorch's own errors included).
  static Model load(const std::string& dir);
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  ~Model();

  const ModelManifest& manifest() const;
  // planar: 3 x input_height x input_width bytes (frame_image.h downscale_planar).
  std::vector<Detection> detect(const std::uint8_t* planar);
  // One time step: features of one frame (manifest().features.size() floats).
  PolicyOutput policy_step(std::span<const float> features);
  void reset_policy();

 private:
  struct Impl;
  explicit Model(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pictor::ic
