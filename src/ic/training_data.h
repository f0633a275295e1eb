// A recording (REC) loaded for training: per recorded frame its image file, its ground-truth
// objects (when labelled) and the behavioural-cloning target (what the driver did next).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ic/features.h"
#include "ic/recording.h"

namespace pictor::ic {

struct TrainingFrame {
  std::int64_t seen_ns = 0;
  std::string image_path;                         // the JPEG
  std::string label_path;                         // its YOLO label file (may not exist)
  std::optional<std::vector<Detection>> objects;  // nullopt: no label file (no truth)
  std::vector<float> held;                        // per vocabulary entry, 1 = held (see FrameAction)
  std::vector<float> pressed;                     // per vocabulary entry, 1 = a press onset in the interval
  float moved = 0;                                // 1 = the pointer was moved in the interval
  float dx = 0, dy = 0;                           // pointer motion, window pixels
  // The pointer event of the interval, for the pointer-target head (pointer_target.h): the first
  // press of a vocabulary *button* (its vocabulary index), else a pointer move (the vocabulary
  // size), else -1 (none). event_x, event_y: where it happened (the press's position, or the
  // last position set in the interval), window pixels.
  int pointer_event = -1;
  float event_x = -1, event_y = -1;
};

struct TrainingRecording {
  std::string dir;
  RecordingInfo info;
  std::vector<TrainingFrame> frames;
};

// Per recorded frame the pointer event of its interval [seen(i), seen(i+1)) (the intervals of
// derive_frame_actions): first button press, else a move, else none; see TrainingFrame.
struct PointerEvent {
  int event = -1;
  float x = -1, y = -1;
};
std::vector<PointerEvent> derive_pointer_events(const Recording& rec);

// Reads REC/recording.json, frames.csv, inputs.csv and labels/NNNNNN.txt. Throws UsageError
// naming the file (and line) for bad content, and for a recording without classes or vocabulary.
TrainingRecording load_training_recording(const std::string& dir);

// Recordings trained together must agree on classes, vocabulary and frame size; throws
// UsageError naming the first one that differs from the first recording.
void check_compatible(const std::vector<TrainingRecording>& recs);

// The training data hash for the manifest: FNV-1a 64 over, for each recording in order, the
// bytes of recording.json, frames.csv, inputs.csv, labels/classes.txt, then each frame's label
// file and JPEG in frame order (a missing file contributes its name only). 16 hex digits.
std::string training_data_hash(const std::vector<TrainingRecording>& recs);

}  // namespace pictor::ic
