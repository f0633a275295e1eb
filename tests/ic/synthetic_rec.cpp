#include "synthetic_rec.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "ic/frame_image.h"
#include "ic/recording.h"

namespace pictor::ic::test {

namespace fs = std::filesystem;

namespace {

struct Box {
  int cls;
  double cx, cy, w, h;
};

void fill(RgbImage& img, const Box& b, std::uint8_t r, std::uint8_t g, std::uint8_t bl) {
  const int x0 = static_cast<int>((b.cx - b.w / 2) * img.width), x1 = static_cast<int>((b.cx + b.w / 2) * img.width);
  const int y0 = static_cast<int>((b.cy - b.h / 2) * img.height), y1 = static_cast<int>((b.cy + b.h / 2) * img.height);
  for (int y = std::max(0, y0); y < std::min(img.height, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(img.width, x1); ++x) {
      std::uint8_t* p = img.rgb.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x)) * 3;
      p[0] = r, p[1] = g, p[2] = bl;
    }
}

Box player_at(int i) { return Box{0, 0.5 + 0.35 * std::sin(i * 0.3), 0.75, 0.16, 0.25}; }
Box car_at(int i) { return Box{1, 0.5 + 0.3 * std::cos(i * 0.17), 0.3, 0.12, 0.18}; }

// A red player and a blue car moving on grey, one frame every 33 ms, labelled except frame
// `unlabelled` (-1: none); `act` adds the inputs the hand-made driver makes 5 ms after frame i.
using Act = std::function<void(int i, std::int64_t t, const Box& player, std::vector<RecInput>& inputs)>;

void write_moving_boxes(const std::string& dir, const std::string& game, std::vector<std::string> vocabulary,
                        int frames, int unlabelled, const Act& act) {
  fs::create_directories(fs::path(dir) / "frames");
  fs::create_directories(fs::path(dir) / "labels");
  RecordingInfo info;
  info.game = game;
  info.driver = "hand-made";
  info.synthetic = true;
  info.window = {1280, 720};
  info.frame_size = {128, 72};
  info.classes = {"player", "car"};
  info.vocabulary = std::move(vocabulary);
  std::vector<RecFrame> rec_frames;
  std::vector<RecInput> inputs;
  for (int i = 0; i < frames; ++i) {
    const std::int64_t seen = 1'000'000'000 + std::int64_t{i} * 33'000'000;
    const Box player = player_at(i), car = car_at(i);
    RgbImage img{128, 72, std::vector<std::uint8_t>(128 * 72 * 3, 90)};
    fill(img, player, 220, 30, 30);
    fill(img, car, 30, 40, 220);
    RecFrame f;
    f.index = static_cast<std::size_t>(i);
    f.seen_ns = seen;
    f.app_frame = static_cast<std::uint64_t>(i);
    f.file = rec_frame_file(f.index);
    write_file_bytes((fs::path(dir) / f.file).string(), encode_jpeg(img, 90));
    if (i != unlabelled) {
      std::ofstream lab(fs::path(dir) / rec_label_file(f.index));
      for (const Box& b : {player, car}) lab << fmt::format("{} {:.6f} {:.6f} {:.6f} {:.6f}\n", b.cls, b.cx, b.cy, b.w, b.h);
    }
    rec_frames.push_back(f);
    act(i, seen + 5'000'000, player, inputs);
  }
  info.frames = rec_frames.size();
  info.inputs = inputs.size();
  info.duration_s = frames * 0.033;
  std::ofstream(fs::path(dir) / "labels" / "classes.txt") << "player\ncar\n";
  write_recording_info((fs::path(dir) / "recording.json").string(), info);
  write_rec_frames((fs::path(dir) / "frames.csv").string(), rec_frames);
  write_rec_inputs((fs::path(dir) / "inputs.csv").string(), inputs);
}

}  // namespace

void write_synthetic_clicks(const std::string& dir, int frames) {
  // Every fourth frame: move onto the player (a fifth of its height below its centre) and press;
  // release two frames later.
  write_moving_boxes(dir, "synthetic:clicks", {"button1"}, frames, -1,
                     [](int i, std::int64_t t, const Box& player, std::vector<RecInput>& inputs) {
                       if (i % 4 == 0) {
                         const int x = static_cast<int>(std::lround(player.cx * 1280));
                         const int y = static_cast<int>(std::lround((player.cy + 0.2 * player.h) * 720));
                         inputs.push_back({t, {drivers::InputKind::pointer_motion, 0, x, y}});
                         inputs.push_back({t + 1, {drivers::InputKind::button_press, 1, x, y}});
                       } else if (i % 4 == 2) {
                         inputs.push_back({t, {drivers::InputKind::button_release, 1, -1, -1}});
                       }
                     });
}

ModelManifest hand_manifest(std::vector<std::string> classes, std::vector<std::string> vocabulary) {
  ModelManifest m;
  m.features = FeatureLayout{static_cast<int>(classes.size()), 4};
  m.classes = std::move(classes);
  m.vocabulary = std::move(vocabulary);
  m.window_width = 1280;
  m.window_height = 720;
  return m;
}

void write_synthetic_rec(const std::string& dir, int frames) {
  // Steer towards the centre, pointer on the player; frame 3 has no label file.
  const unsigned left = drivers::parse_input_code("Left").code, right = drivers::parse_input_code("Right").code;
  bool holding_left = false, holding_right = false;
  write_moving_boxes(dir, "synthetic:test", {"Left", "Right"}, frames, 3,
                     [&](int, std::int64_t t, const Box& player, std::vector<RecInput>& inputs) {
                       const bool want_right = player.cx < 0.5, want_left = !want_right;
                       if (holding_left && !want_left) inputs.push_back({t, {drivers::InputKind::key_release, left, -1, -1}});
                       if (holding_right && !want_right) inputs.push_back({t, {drivers::InputKind::key_release, right, -1, -1}});
                       if (!holding_left && want_left) inputs.push_back({t, {drivers::InputKind::key_press, left, -1, -1}});
                       if (!holding_right && want_right) inputs.push_back({t, {drivers::InputKind::key_press, right, -1, -1}});
                       holding_left = want_left;
                       holding_right = want_right;
                       inputs.push_back({t + 1, {drivers::InputKind::pointer_motion, 0, static_cast<int>(player.cx * 1280), 360}});
                     });
}

void edit_manifest(const std::string& dir, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j;
  std::ifstream(dir + "/manifest.json") >> j;
  edit(j);
  std::ofstream(dir + "/manifest.json") << j.dump();
}

}  // namespace pictor::ic::test
