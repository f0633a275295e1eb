// A small recording made by hand in the REC format (docs/intelligent-client.md) for the model
// tests: coloured boxes moving over a plain background, and a driver that steers after them.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "ic/manifest.h"
#include "temp_dir.h"

namespace pictor::ic::test {

// Writes REC into `dir`: `frames` frames 33 ms apart at 128x72 (window 1280x720), classes
// player (red box) and car (blue box), vocabulary Left, Right. The player slides left and right;
// the driver holds Right while the player is left of the centre and Left otherwise, and moves the
// pointer to the player's position on every frame. Frame 3 has no label file.
void write_synthetic_rec(const std::string& dir, int frames = 60);

// The same scene, played by clicking: vocabulary button1 only. Every 4th frame the driver moves
// the pointer onto the player box at (cx, cy + 0.2 h) and presses button1 there (pointer_motion
// and button_press with that position), releasing it 2 frames later. Every label file is written.
void write_synthetic_clicks(const std::string& dir, int frames = 60);

// A manifest for hand-built models: `classes`, `vocabulary`, feature slots FeatureLayout{classes,
// 4}, window 1280x720; every calibrated field left for the test to set.
ModelManifest hand_manifest(std::vector<std::string> classes, std::vector<std::string> vocabulary);

// Rewrites DIR/manifest.json after `edit` changed it.
void edit_manifest(const std::string& dir, const std::function<void(nlohmann::json&)>& edit);

}  // namespace pictor::ic::test
