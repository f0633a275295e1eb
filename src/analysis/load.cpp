// load_frames: opens the file (or DIR/frames.csv), recognises its format from the content and
// hands it to the matching reader (pictor_frames.cpp, mangohud.cpp, presentmon.cpp).
#include "analysis/load.h"

#include <fmt/format.h>

#include <filesystem>

#include "analysis/csv.h"
#include "analysis/importers.h"
#include "analysis/session_schema.h"
#include "core/csv_files.h"
#include "core/error.h"
#include "core/files.h"

namespace pictor::analysis {

namespace {

// Lines looked at to recognise a format: MangoHud's header comes after up to five preamble lines.
constexpr int kDetectLines = 12;

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool has_field(std::string_view folded_line, std::string_view name) {
  std::size_t b = 0;
  while (b <= folded_line.size()) {
    std::size_t e = folded_line.find(',', b);
    if (e == std::string_view::npos) e = folded_line.size();
    std::string_view f = folded_line.substr(b, e - b);
    if (!f.empty() && f.front() == '"' && f.back() == '"' && f.size() >= 2) f = f.substr(1, f.size() - 2);
    if (f == name) return true;
    b = e + 1;
  }
  return false;
}

}  // namespace

FrameFormat detect_frame_format(std::string_view text) {
  if (starts_with(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  std::size_t pos = 0;
  for (int seen = 0; seen < kDetectLines && pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string line = fold(text.substr(pos, end - pos));
    pos = end + 1;
    std::string_view l = line;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.empty()) continue;
    ++seen;
    if (starts_with(l, "# pictor frames")) return FrameFormat::pictor;
    if (starts_with(l, "#")) continue;
    if (has_field(l, "swap_ns") && has_field(l, "frame")) return FrameFormat::pictor;
    // The frame-metrics header; matched on its neighbours too, so that a log missing 'frametime'
    // is reported as such rather than as an unknown format.
    if (starts_with(l, "fps,") && (has_field(l, "frametime") || has_field(l, "elapsed") ||
                                   has_field(l, "cpu_load"))) {
      return FrameFormat::mangohud;
    }
    if (starts_with(l, "os,cpu,gpu")) return FrameFormat::mangohud;
    if (has_field(l, "application") && has_field(l, "processid")) return FrameFormat::presentmon;
  }
  return FrameFormat::unknown;
}

FrameSeries read_frames_text(std::string_view text, const std::string& path) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) fail_at(path, 1, "file is empty");
  switch (detect_frame_format(text)) {
    case FrameFormat::pictor:
      return read_pictor_frames(text, path);
    case FrameFormat::mangohud:
      return read_mangohud_log(text, path);
    case FrameFormat::presentmon:
      return read_presentmon_csv(text, path);
    case FrameFormat::unknown:
      break;
  }
  fail_at(path, 1,
          "unknown format: not a Pictor frames.csv, a MangoHud CSV log or a PresentMon CSV");
}

FrameSeries load_frames(const std::string& path) {
  std::error_code ec;
  std::string file = path;
  if (std::filesystem::is_directory(path, ec)) {
    file = (std::filesystem::path(path) / "frames.csv").string();
  }
  // Refuses a device, a directory named frames.csv and a file too large to hold in memory.
  const std::string text = files::read_input_file(file);
  if (detect_frame_format(text) == FrameFormat::pictor) {
    check_declared_schema(file, "frames.csv", csv_files::kFrames.schema);
  }
  return read_frames_text(text, file);
}

}  // namespace pictor::analysis
