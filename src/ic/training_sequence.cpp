#include "ic/training_sequence.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ic/frame_image.h"
#include "icdata/frame_image.h"

namespace pictor::ic {

Sequence prepare(const TrainingRecording& rec, const NetworkShape& shape, double held_out) {
  Sequence s;
  const std::size_t n = rec.frames.size();
  s.train_end = std::clamp<std::size_t>(static_cast<std::size_t>(std::lround(static_cast<double>(n) * (1.0 - held_out))),
                                        1, n);
  const std::size_t planar = 3 * static_cast<std::size_t>(shape.input_width) * static_cast<std::size_t>(shape.input_height);
  std::vector<Detection> last;
  const auto ww = static_cast<float>(std::max(1, rec.info.window.width));
  const auto wh = static_cast<float>(std::max(1, rec.info.window.height));
  for (const TrainingFrame& f : rec.frames) {
    const icdata::RgbImage img = icdata::read_jpeg_file(f.image_path);
    std::vector<std::uint8_t> buf(planar);
    downscale_planar(img.view(), shape.input_width, shape.input_height, buf.data());
    s.images.push_back(std::move(buf));
    s.truth.push_back(f.objects);
    if (f.objects) last = *f.objects;
    s.objects.push_back(last);
    s.held.push_back(f.held);
    s.pressed.push_back(f.pressed);
    s.moved.push_back(f.moved);
    s.seen_ns.push_back(f.seen_ns);
    s.motion.emplace_back(f.dx / ww, f.dy / wh);
    s.pointer.event.push_back(f.pointer_event);
    s.pointer.at.emplace_back(f.event_x / ww, f.event_y / wh);
    s.pointer.delta.emplace_back(f.dx / ww, f.dy / wh);
  }
  return s;
}

torch::Tensor image_batch(const std::vector<const std::vector<std::uint8_t>*>& images, const NetworkShape& shape,
                          const std::vector<bool>& flip) {
  const auto b = static_cast<std::int64_t>(images.size());
  torch::Tensor x = torch::empty({b, 3, shape.input_height, shape.input_width}, torch::kUInt8);
  const auto bytes = static_cast<std::size_t>(x.numel() / std::max<std::int64_t>(b, 1));
  for (std::int64_t i = 0; i < b; ++i) {
    std::memcpy(x[i].data_ptr<std::uint8_t>(), images[static_cast<std::size_t>(i)]->data(), bytes);
    if (!flip.empty() && flip[static_cast<std::size_t>(i)]) x[i].copy_(x[i].flip({2}));
  }
  return x.to(torch::kFloat32);
}

std::vector<std::vector<Detection>> detect_all(DetectorNet& det, const Sequence& s, const ModelManifest& m,
                                               double confidence) {
  torch::NoGradGuard no_grad;
  std::vector<std::vector<Detection>> out;
  const std::size_t chunk = 64;
  for (std::size_t i = 0; i < s.images.size(); i += chunk) {
    std::vector<const std::vector<std::uint8_t>*> imgs;
    for (std::size_t k = i; k < std::min(s.images.size(), i + chunk); ++k) imgs.push_back(&s.images[k]);
    const torch::Tensor y = det->forward(image_batch(imgs, m.shape)).contiguous();
    for (std::size_t k = 0; k < imgs.size(); ++k) {
      const torch::Tensor yk = y[static_cast<std::int64_t>(k)].contiguous();
      out.push_back(decode_grid(GridOutput{yk.data_ptr<float>(), m.shape.grid_width(), m.shape.grid_height(),
                                           static_cast<int>(m.classes.size())},
                                confidence, m.nms_iou));
    }
  }
  return out;
}

}  // namespace pictor::ic
