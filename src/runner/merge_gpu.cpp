#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/csv.h"
#include "core/error.h"
#include "core/files.h"
#include "runner/session.h"

namespace pictor::runner {
namespace {

std::string join(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) (out += i ? "," : "") += fields[i];
  return out;
}

bool is_comment(const analysis::CsvRow& row) { return !row.fields.empty() && row.fields[0].starts_with('#'); }

}  // namespace

std::size_t merge_late_gpu(const std::string& session_dir) try {
  namespace fs = std::filesystem;
  const fs::path frames = fs::path(session_dir) / "frames.csv";
  const fs::path gpu = fs::path(session_dir) / "gpu.csv";
  if (!fs::exists(gpu) || !fs::exists(frames)) return 0;
  // The late results: (frame, ctx) → ms, from gpu.csv's header-named columns.
  std::map<std::pair<std::string, std::string>, std::string> results;
  const std::string gpu_text = files::read_file(gpu);
  analysis::CsvReader gin(gpu_text, gpu.string());
  analysis::CsvRow row;
  std::optional<analysis::CsvHeader> gh;
  std::size_t g_frame = 0, g_ctx = 0, g_ms = 0;
  while (gin.next(row)) {
    if (is_comment(row)) continue;
    if (!gh) {
      gh.emplace(row, gpu.string());
      const auto f = gh->find("frame"), c = gh->find("ctx"), m = gh->find("gpu_ms");
      if (!f || !c || !m) return 0;
      g_frame = *f, g_ctx = *c, g_ms = *m;
      continue;
    }
    if (row.fields.size() == gh->size() && !row.fields[g_ms].empty())
      results[{row.fields[g_frame], row.fields[g_ctx]}] = row.fields[g_ms];
  }
  if (results.empty()) return 0;

  const std::string frames_text = files::read_file(frames);
  analysis::CsvReader fin(frames_text, frames.string());
  std::string out;
  std::optional<analysis::CsvHeader> fh;
  std::size_t f_gpu = 0, f_frame = 0, f_ctx = 0, filled = 0;
  while (fin.next(row)) {
    if (!is_comment(row) && !fh) {
      fh.emplace(row, frames.string());
      const auto g = fh->find("gpu_ms"), f = fh->find("frame"), c = fh->find("ctx");
      if (!g || !f || !c) return 0;
      f_gpu = *g, f_frame = *f, f_ctx = *c;
    } else if (!is_comment(row) && row.fields.size() == fh->size() && row.fields[f_gpu].empty()) {
      // A row cut short by a killed app is kept as it is (the wrong width): the reader reports it.
      const auto it = results.find({row.fields[f_frame], row.fields[f_ctx]});
      if (it != results.end()) {
        row.fields[f_gpu] = it->second;
        ++filled;
      }
    }
    out += join(row.fields);
    if (row.terminated) out += '\n';
  }
  if (filled == 0) return 0;
  // Whole or not at all: on a full disk frames.csv stays as the interposer wrote it.
  files::write_file(frames, out);
  return filled;
} catch (const UsageError&) {
  // A file the reader cannot take (an unreadable one, a quote left open) stays as it is: the
  // analysis reads it next and names the problem. A full disk (WriteError) goes to the caller.
  return 0;
}

}  // namespace pictor::runner
