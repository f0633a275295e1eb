#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/files.h"
#include "runner/session.h"

namespace pictor::runner {

static std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

std::size_t merge_late_gpu(const std::string& session_dir) {
  namespace fs = std::filesystem;
  const fs::path frames = fs::path(session_dir) / "frames.csv";
  const fs::path gpu = fs::path(session_dir) / "gpu.csv";
  std::ifstream gin(gpu);
  if (!gin) return 0;
  std::map<std::pair<std::string, std::string>, std::string> results;  // (frame, ctx) → ms
  std::string line;
  while (std::getline(gin, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("frame,", 0) == 0) continue;
    const auto cells = split(line);
    if (cells.size() == 3 && !cells[2].empty()) results[{cells[0], cells[1]}] = cells[2];
  }
  std::ifstream fin(frames);
  if (!fin) return 0;
  std::ostringstream out;
  std::size_t filled = 0;
  long gpu_col = -1, frame_col = -1, ctx_col = -1;
  std::size_t width = 0;
  while (std::getline(fin, line)) {
    if (line.empty() || line[0] == '#') {
      out << line << '\n';
      continue;
    }
    auto cells = split(line);
    if (gpu_col < 0) {
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == "gpu_ms") gpu_col = static_cast<long>(i);
        if (cells[i] == "frame") frame_col = static_cast<long>(i);
        if (cells[i] == "ctx") ctx_col = static_cast<long>(i);
      }
      width = cells.size();
      out << line << '\n';
      if (gpu_col < 0 || frame_col < 0 || ctx_col < 0) return 0;
      continue;
    }
    // A row cut short by a killed app is kept as it is: the reader reports it.
    if (cells.size() == width && cells[static_cast<std::size_t>(gpu_col)].empty()) {
      const auto it = results.find({cells[static_cast<std::size_t>(frame_col)], cells[static_cast<std::size_t>(ctx_col)]});
      if (it != results.end()) {
        cells[static_cast<std::size_t>(gpu_col)] = it->second;
        ++filled;
        std::string joined;
        for (std::size_t i = 0; i < cells.size(); ++i) joined += (i ? "," : "") + cells[i];
        out << joined << '\n';
        continue;
      }
    }
    out << line << (fin.eof() ? "" : "\n");
  }
  if (filled == 0) return 0;
  // Whole or not at all: on a full disk frames.csv stays as the interposer wrote it.
  files::write_file(frames, out.str());
  return filled;
}

}  // namespace pictor::runner
