// The two painters of a GraphScene: SVG text (hand-written, so frames stay one <rect> each and
// labels stay real text) and PNG through cairo. Internal to pictor_report.
#pragma once
#include <string>

#include "report/graph_scene.h"

namespace pictor::report {

std::string scene_to_svg(const GraphScene& scene);

// Throws UsageError naming `path` when the image is too large for PNG or cannot be written.
void write_scene_png(const GraphScene& scene, const std::string& path);

// Replaces `path` by `text` whole (core/files.h write_file). Throws UsageError naming the path
// and the OS's reason when the path cannot be written (no such directory, no permission), and
// files::WriteError (exit 1) when the disk is full or fails.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace pictor::report
