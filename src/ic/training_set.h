// What `pictor train` works on before and beside the networks (torch/trainer.h runs the phases):
// the options and their checks, the recordings loaded into sequences with the model's shape that
// follows from them, and the policy's inputs and targets. No libtorch: built and tested always.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ic/features.h"
#include "ic/manifest.h"
#include "ic/target_training.h"
#include "ic/training_data.h"
#include "ic/training_sequence.h"

namespace pictor::ic {

struct TrainOptions {
  std::vector<std::string> recordings;  // REC directories
  std::string out;                      // MODEL directory (created; files replaced)
  int detector_steps = 2000;            // Adam steps of `batch` frames each
  int policy_steps = 1500;              // Adam steps of `batch` sequences of `sequence` frames
  std::uint64_t seed = 1;
  int threads = 1;                      // torch intra-op threads
  NetworkShape shape;
  // The detector's decode threshold, in (0, 1); none: the one with the best F1 on the held-out
  // frames (detections.h best_f1_confidence; 0.3 when none is labelled).
  std::optional<double> confidence = 0.3;
  // Feature slots per class (features.h); 0: the most objects of one class on any labelled
  // training frame, clamped to kMinSlots..kMaxSlots (auto_slots_per_class).
  int per_class = 0;
  int batch = 16;
  int sequence = 32;
  // The last `held_out` fraction of each recording's frames is not trained on; the manifest's
  // metrics are measured there.
  double held_out = 0.2;
  // The pointer's frame of reference (target_training.h fit_aim): auto, pointer or crosshair.
  std::string aim = "auto";
  // Save a model that model_quality.h judges weak (its verdict still says so); false: refuse it.
  bool accept_weak = false;
  // Transient status ("detector step 120/800 loss ..."), and lines that stay.
  std::function<void(const std::string&)> progress;
  std::function<void(const std::string&)> note;
};

// The default number of feature slots per class: every object of a class that the labelled
// frames show at once, so the pointer-target head can name any object the teacher clicked (the
// strategy game shows 5 workers and 6 crystals; 4 slots dropped the rightmost crystals, the
// ones the teacher sent workers to). At least kMinSlots, at most kMaxSlots (the policy's input
// grows with it). `counts`: per labelled frame, per class, the number of objects.
inline constexpr int kMinSlots = 4, kMaxSlots = 8;
int auto_slots_per_class(const std::vector<std::vector<int>>& counts);

// Phase "validate": throws UsageError for options no training can use, before anything is read.
void check_train_options(const TrainOptions& o);

// Phase "load": the recordings read and checked against each other and the options, the model's
// manifest as far as the data decides it (shape, classes, vocabulary, feature slots, window),
// every frame downscaled to the detector's input, and the labelled frames split into the
// detector's training pool and its held-out frames.
struct TrainingSet {
  std::vector<TrainingRecording> recordings;
  ModelManifest manifest;  // completed by the later phases (calibration, aim, metrics)
  std::vector<Sequence> sequences;
  std::vector<Frame> detector_pool, detector_held_out;
  std::size_t frames = 0, frames_trained = 0;
};
// Throws UsageError naming the recording (unreadable, incompatible, frames smaller than the
// detector's input, no labelled frame to train on). Reports through o.progress and o.note.
TrainingSet load_training_set(const TrainOptions& o);

// Phase "policy data": what the policy learns from, once the detector has looked at every frame.
struct PolicyData {
  // Per sequence, per frame: the features of the labels (carried over unlabelled frames) and of
  // the trained detector's boxes.
  std::vector<std::vector<std::vector<float>>> truth_features, detector_features;
  std::vector<float> majority;          // per key: the share of trained frames it was held
  std::vector<PointerTrack> tracks;     // per sequence; a crosshair model's at their aim points
  std::vector<std::size_t> train_ends;  // per sequence: frames [0, end) are trained on
  AimFit aim;
};
// `detected`: per sequence, per frame, the detector's boxes at the manifest's confidence. Sets the
// manifest's motion_scale, frame_interval_ms, target_radius and aim fields (fit_aim with o.aim,
// reported through o.note); the pointer tracks move out of the sequences.
PolicyData policy_data(TrainingSet& set, const std::vector<std::vector<std::vector<Detection>>>& detected,
                       const TrainOptions& o);

// The median gap between consecutive recorded frames over all sequences (the upper middle one for
// an even count), ms; 0 with no gap. The LSTM's time step.
double median_frame_interval_ms(const std::vector<Sequence>& seqs);

// Policy features at training time from the ground-truth labels, perturbed the way a detector's
// output differs from truth: confidence uniform in 0.5..1, centre jitter of up to 1 % of the
// frame, each object dropped with probability 5 %.
std::vector<float> perturbed_features(const std::vector<Detection>& objects, const FeatureLayout& layout,
                                      std::mt19937_64& rng);

}  // namespace pictor::ic
