#include "ic/training_data.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "ic/labels.h"

namespace pictor::ic {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// YOLO label files are read by labels.h (the same checks as `pictor record` and the importers).
std::vector<Detection> read_labels(const std::string& text, const std::string& path, int classes) {
  std::vector<Detection> out;
  for (const LabelBox& b : parse_yolo_text(text, path, classes))
    out.push_back(Detection{b.class_id, static_cast<float>(b.cx), static_cast<float>(b.cy), static_cast<float>(b.w),
                            static_cast<float>(b.h), 1.0f});
  return out;
}

}  // namespace

std::vector<PointerEvent> derive_pointer_events(const Recording& rec) {
  std::vector<std::pair<unsigned, int>> buttons;  // button number -> vocabulary index
  for (std::size_t i = 0; i < rec.info.vocabulary.size(); ++i) {
    const drivers::InputCode c = drivers::parse_input_code(rec.info.vocabulary[i]);
    if (c.button) buttons.emplace_back(c.code, static_cast<int>(i));
  }
  const int move = static_cast<int>(rec.info.vocabulary.size());
  std::vector<PointerEvent> out(rec.frames.size());
  int px = -1, py = -1;
  std::size_t next = 0;
  for (std::size_t i = 0; i < rec.frames.size(); ++i) {
    const bool last = i + 1 == rec.frames.size();
    const std::int64_t end = last ? 0 : rec.frames[i + 1].seen_ns;
    const int start_x = px, start_y = py;
    PointerEvent& e = out[i];
    for (; next < rec.inputs.size() && (last || rec.inputs[next].t_ns < end); ++next) {
      const drivers::Input& in = rec.inputs[next].input;
      if (in.x >= 0) {
        px = in.x;
        py = in.y;
      }
      if (in.kind != drivers::InputKind::button_press || e.event != -1) continue;  // the first press counts
      for (const auto& [code, index] : buttons)
        if (code == in.code && px >= 0) e = {index, static_cast<float>(px), static_cast<float>(py)};
    }
    // No press: a move when the pointer ended elsewhere than it started (as FrameAction::moved).
    if (e.event == -1 && px >= 0 && (px != start_x || py != start_y))
      e = {move, static_cast<float>(px), static_cast<float>(py)};
  }
  return out;
}

TrainingRecording load_training_recording(const std::string& dir) {
  const Recording rec = read_recording(dir);
  TrainingRecording out;
  out.dir = dir;
  out.info = rec.info;
  const std::string json = dir + "/recording.json";
  if (rec.info.classes.empty())
    throw UsageError(fmt::format("{}: no classes: the recording has no labels to train a detector on", json));
  if (rec.info.vocabulary.empty())
    throw UsageError(fmt::format("{}: empty vocabulary: no keys or buttons to learn", json));
  if (rec.frames.size() < 2) throw UsageError(fmt::format("{}/frames.csv: fewer than 2 frames", dir));
  const std::vector<FrameAction> actions = derive_frame_actions(rec);
  const std::vector<PointerEvent> events = derive_pointer_events(rec);
  const int classes = static_cast<int>(rec.info.classes.size());
  out.frames.reserve(rec.frames.size());
  for (std::size_t i = 0; i < rec.frames.size(); ++i) {
    const RecFrame& f = rec.frames[i];
    TrainingFrame t;
    t.seen_ns = f.seen_ns;
    t.image_path = (fs::path(dir) / f.file).string();
    t.label_path = (fs::path(dir) / rec_label_file(f.index)).string();
    if (const auto text = read_file(t.label_path)) t.objects = read_labels(*text, t.label_path, classes);
    const FrameAction& a = actions[i];
    t.held.reserve(a.held.size());
    for (const bool h : a.held) t.held.push_back(h ? 1.0f : 0.0f);
    for (const bool h : a.pressed) t.pressed.push_back(h ? 1.0f : 0.0f);
    t.moved = a.moved ? 1.0f : 0.0f;
    t.dx = static_cast<float>(a.dx);
    t.dy = static_cast<float>(a.dy);
    t.pointer_event = events[i].event;
    t.event_x = events[i].x;
    t.event_y = events[i].y;
    out.frames.push_back(std::move(t));
  }
  return out;
}

void check_compatible(const std::vector<TrainingRecording>& recs) {
  if (recs.empty()) throw UsageError("no recordings to train on");
  const auto& first = recs.front();
  for (const auto& r : recs) {
    if (r.info.classes != first.info.classes)
      throw UsageError(fmt::format("{}: classes differ from those of {}", r.dir, first.dir));
    if (r.info.vocabulary != first.info.vocabulary)
      throw UsageError(fmt::format("{}: vocabulary differs from that of {}", r.dir, first.dir));
    if (r.info.frame_size != first.info.frame_size)
      throw UsageError(fmt::format("{}: frame_size differs from that of {}", r.dir, first.dir));
  }
}

namespace {

struct Fnv64 {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add(std::string_view bytes) {
    for (const char c : bytes) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ull;
    }
  }
  void add_file(const std::string& path, const std::string& name) {
    add(name);
    add(std::string_view("\0", 1));
    if (const auto text = read_file(path)) add(*text);
  }
};

}  // namespace

std::string training_data_hash(const std::vector<TrainingRecording>& recs) {
  Fnv64 h;
  for (const auto& r : recs) {
    for (const char* name : {"recording.json", "frames.csv", "inputs.csv", "labels/classes.txt"})
      h.add_file(r.dir + "/" + name, name);
    for (const TrainingFrame& f : r.frames) {
      h.add_file(f.label_path, fs::path(f.label_path).filename().string());
      h.add_file(f.image_path, fs::path(f.image_path).filename().string());
    }
  }
  return fmt::format("{:016x}", h.h);
}

}  // namespace pictor::ic
