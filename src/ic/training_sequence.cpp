#include "ic/training_sequence.h"

#include <algorithm>
#include <cmath>

#include "ic/frame_image.h"

namespace pictor::ic {

namespace {

// Frames [from, to) of `all` as a sequence whose last `held_out` fraction is not trained on.
Sequence slice(const Sequence& all, std::size_t from, std::size_t to, double held_out) {
  Sequence s;
  const auto a = static_cast<std::ptrdiff_t>(from), b = static_cast<std::ptrdiff_t>(to);
  auto copy = [&](auto& dst, const auto& src) { dst.assign(src.begin() + a, src.begin() + b); };
  copy(s.images, all.images);
  copy(s.truth, all.truth);
  copy(s.objects, all.objects);
  copy(s.held, all.held);
  copy(s.pressed, all.pressed);
  copy(s.moved, all.moved);
  copy(s.motion, all.motion);
  copy(s.seen_ns, all.seen_ns);
  copy(s.pointer.event, all.pointer.event);
  copy(s.pointer.at, all.pointer.at);
  copy(s.pointer.delta, all.pointer.delta);
  const std::size_t n = to - from;
  s.train_end = std::clamp<std::size_t>(static_cast<std::size_t>(std::lround(static_cast<double>(n) * (1.0 - held_out))),
                                        1, n);
  return s;
}

Sequence decode(const TrainingRecording& rec, const NetworkShape& shape) {
  Sequence s;
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

}  // namespace

std::vector<Sequence> prepare(const TrainingRecording& rec, const NetworkShape& shape, double held_out,
                              std::size_t blocks) {
  Sequence all = decode(rec, shape);
  const std::size_t n = all.images.size();
  std::vector<Sequence> out;
  if (n == 0) {
    out.push_back(std::move(all));
    return out;
  }
  blocks = std::max<std::size_t>(1, std::min(blocks, n / kMinBlockFrames));
  for (std::size_t b = 0; b < blocks; ++b) out.push_back(slice(all, b * n / blocks, (b + 1) * n / blocks, held_out));
  return out;
}

}  // namespace pictor::ic
