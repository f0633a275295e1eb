#include "ic/training_sequence.h"

#include <algorithm>
#include <cmath>

#include "ic/frame_image.h"

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
    const RgbImage img = read_jpeg_file(f.image_path);
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

}  // namespace pictor::ic
