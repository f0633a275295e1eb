// The recording directory (REC, docs/intelligent-client.md): what `pictor record` writes and
// `pictor train` and the baseline drivers read — recording.json, frames.csv, inputs.csv, labels.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/units.h"
#include "drivers/input.h"

namespace pictor::ic {

inline constexpr int kRecordingSchema = 1;
// Recorded frames are downscaled to this size by default (16:9, small enough for a CPU detector).
inline constexpr Size kDefaultFrameSize{256, 144};

// recording.json.
struct RecordingInfo {
  std::string game;              // "builtin:racing:seed=3,detail=1" or "profile:NAME"
  std::string driver;            // the driver's resolved spec ("reference:game=racing,seed=1")
  bool synthetic = false;        // true: no person played (reference player, scripted, replay)
  std::string adapter = "local";
  std::string net;               // emulated network spec; empty: none
  Size window{1280, 720};
  Size frame_size = kDefaultFrameSize;
  std::size_t frames = 0;
  std::size_t inputs = 0;
  double duration_s = 0;
  std::vector<std::string> classes;     // label classes (labels/classes.txt), empty without truth
  std::vector<std::string> vocabulary;  // key and button names the driver may send ("Up", "button1")
  std::string session = "session";      // the session directory, relative to REC
};

// frames.csv: one recorded client frame.
struct RecFrame {
  std::size_t index = 0;
  std::int64_t seen_ns = 0;                 // CLOCK_MONOTONIC when the client had the pixels
  std::optional<std::uint64_t> app_frame;   // from the marker; nullopt: unreadable
  std::optional<std::uint64_t> tag;
  std::string file;                         // relative to REC ("frames/000123.jpg")
};

// inputs.csv: one input the driver sent, with the time it asked for it.
struct RecInput {
  std::int64_t t_ns = 0;
  drivers::Input input;
  bool operator==(const RecInput&) const = default;
};

struct Recording {
  std::string dir;
  RecordingInfo info;
  std::vector<RecFrame> frames;
  std::vector<RecInput> inputs;
};

nlohmann::json recording_info_json(const RecordingInfo& info);
// Throws UsageError "<path>: <cause>" for a missing key, a wrong type or an unknown schema.
RecordingInfo parse_recording_info(const nlohmann::json& j, const std::string& path);

// Writers throw RunError when the file cannot be written.
void write_recording_info(const std::string& path, const RecordingInfo& info);
void write_rec_frames(const std::string& path, const std::vector<RecFrame>& frames);
void write_rec_inputs(const std::string& path, const std::vector<RecInput>& inputs);

// Readers throw UsageError "<path>:<line>: <cause>" on bad content, "<path>: not found".
RecordingInfo read_recording_info(const std::string& path);
std::vector<RecFrame> read_rec_frames(const std::string& path);
std::vector<RecInput> read_rec_inputs(const std::string& path);

// Reads REC/recording.json, frames.csv and inputs.csv (not the images or labels).
Recording read_recording(const std::string& dir);

// "frames/000123.jpg", "labels/000123.txt": the names of recorded frame `index`'s files.
std::string rec_frame_file(std::size_t index);
std::string rec_label_file(std::size_t index);

// What the driver did while frame i was the newest one: the behavioural-cloning target of
// frame i. Defined over the interval [seen_ns(i), seen_ns(i+1)) (the last frame's interval runs
// to the end of the recording; inputs before the first frame count for frame 0).
struct FrameAction {
  // Per vocabulary entry: down at some moment of the interval (held at its start or pressed in
  // it), so a tap shorter than a frame still counts as pressed.
  std::vector<bool> held;
  // Per vocabulary entry: pressed at least once in the interval (a press *onset*; a key held
  // from before is not pressed again). The recorded press rate is what onset sampling matches.
  std::vector<bool> pressed;
  // The driver set a pointer position other than the one at the start of the interval (the
  // first position ever set counts as a move).
  bool moved = false;
  // Pointer motion in window pixels: the last pointer position the driver set before the next
  // frame minus the position at the start of the interval; 0 while no position was ever set.
  double dx = 0, dy = 0;
  // The pointer position at the end of the interval; -1 while none was ever set.
  int pointer_x = -1, pointer_y = -1;
};

// One FrameAction per recorded frame. Inputs whose key or button is not in the vocabulary
// change only the pointer position. Pure: works on the loaded rows.
std::vector<FrameAction> derive_frame_actions(const Recording& rec);

}  // namespace pictor::ic
