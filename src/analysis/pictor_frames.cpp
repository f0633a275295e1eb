// Reader for Pictor's own frames.csv (session directory, written by the interposer): one row per
// swap of every GL context; the context with the most frames is analysed.
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "analysis/importers.h"
#include "core/csv_files.h"
#include "core/text.h"

namespace pictor::analysis {

namespace {

// The newest frames.csv schema this reader understands (declared in the JSON beside the file, or
// on the "# pictor frames schema N" line older versions wrote before the header).
constexpr int kFramesSchema = csv_files::kFrames.schema;

struct FrameRow {
  int64_t frame = 0;
  int64_t swap_ns = 0;
  double gpu_ms = kUnknown;
  double fc_ms = kUnknown, as_ms = kUnknown;
  std::size_t line = 0;
};

void check_schema_comment(const CsvRow& row, const std::string& path) {
  // Rejoin the fields: a comment is free text and may contain commas.
  std::string text;
  for (std::size_t i = 0; i < row.fields.size(); ++i) {
    if (i > 0) text += ',';
    text += row.fields[i];
  }
  const std::string folded = fold(text);
  constexpr std::string_view kPrefix = "# pictor frames schema";
  if (folded.rfind(kPrefix, 0) != 0) return;
  const std::string number = fold(folded.substr(kPrefix.size()));
  int schema = 0;
  try {
    schema = std::stoi(number);
  } catch (const std::exception&) {
    fail_at(path, row.line, fmt::format("unreadable schema line '{}'", quote_for_error(text, 60)));
  }
  if (schema > kFramesSchema) {
    fail_at(path, row.line,
            fmt::format("frames.csv schema {} is newer than this Pictor reads ({})", schema,
                        kFramesSchema));
  }
}

}  // namespace

FrameSeries read_pictor_frames(std::string_view text, const std::string& path) {
  FrameSeries series;
  series.source = "pictor";
  series.path = path;

  CsvReader reader(text, path);
  CsvRow row;
  std::optional<CsvHeader> header;
  while (reader.next(row)) {
    if (!row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#') {
      check_schema_comment(row, path);
      continue;
    }
    header.emplace(row, path);
    break;
  }
  if (!header) fail_at(path, 1, "no header row (expected frame,ctx,swap_ns,...)");

  const std::size_t c_frame = header->require("frame");
  const std::size_t c_swap = header->require("swap_ns");
  const auto c_ctx = header->find("ctx");
  const auto c_gpu = header->find("gpu_ms");
  const auto c_fc = header->find("fc_ms");
  const auto c_as = header->find("as_ms");

  // Rows grouped by context, contexts in order of first appearance.
  std::vector<std::string> ctx_order;
  std::map<std::string, std::vector<FrameRow>> by_ctx;
  while (reader.next(row)) {
    if (!row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#') continue;
    if (!check_row_width(row, *header, series.notes)) continue;
    FrameRow r;
    r.line = row.line;
    // Frame numbers count from 0 and CLOCK_MONOTONIC is never negative; refusing negative values
    // also keeps every difference between two of them within int64.
    r.frame = field_nonnegative_int64(row, *header, c_frame);
    r.swap_ns = field_nonnegative_int64(row, *header, c_swap);
    // A timer query's elapsed time is unsigned: a negative GPU time is a damaged file.
    if (c_gpu) r.gpu_ms = field_optional_nonnegative(row, *header, *c_gpu).value_or(kUnknown);
    // Durations on one clock: a negative one is a damaged file too.
    if (c_fc) r.fc_ms = field_optional_nonnegative(row, *header, *c_fc).value_or(kUnknown);
    if (c_as) r.as_ms = field_optional_nonnegative(row, *header, *c_as).value_or(kUnknown);
    const std::string ctx = c_ctx ? row.fields[*c_ctx] : std::string();
    auto [it, inserted] = by_ctx.try_emplace(ctx);
    if (inserted) ctx_order.push_back(ctx);
    std::vector<FrameRow>& rows = it->second;
    if (!rows.empty()) {
      const FrameRow& prev = rows.back();
      if (r.frame <= prev.frame) {
        fail_at(path, r.line,
                fmt::format("frame {} follows frame {} (line {}) of the same context: rows out of "
                            "order",
                            r.frame, prev.frame, prev.line));
      }
      if (r.swap_ns < prev.swap_ns) {
        fail_at(path, r.line,
                fmt::format("swap_ns {} is earlier than {} of frame {} (line {})", r.swap_ns,
                            prev.swap_ns, prev.frame, prev.line));
      }
    }
    rows.push_back(r);
  }
  if (ctx_order.empty()) return series;  // header only: summarize reports "too few frames"

  // The context with the most frames is the application's main window; ties go to the first seen.
  const std::string* chosen = &ctx_order.front();
  for (const std::string& ctx : ctx_order) {
    if (by_ctx[ctx].size() > by_ctx[*chosen].size()) chosen = &ctx;
  }
  const std::vector<FrameRow>& rows = by_ctx[*chosen];
  if (ctx_order.size() > 1) {
    series.notes.push_back(fmt::format(
        "{} GL contexts swapped; analysed context {} ({} frames), the one with the most frames",
        ctx_order.size(), quote_for_error(*chosen, 40), rows.size()));
  }

  series.swap_ns.reserve(rows.size());
  series.frame_ms.reserve(rows.size());
  if (c_gpu) series.gpu_ms.reserve(rows.size());
  std::size_t gaps = 0;
  int64_t missing = 0;
  std::size_t first_gap_line = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    series.swap_ns.push_back(rows[i].swap_ns);
    // Every frame was copied, the first one too: FC and AS are per frame, not per interval.
    if (c_fc) series.fc_ms.push_back(rows[i].fc_ms);
    if (c_as) series.as_ms.push_back(rows[i].as_ms);
    if (i == 0) continue;
    // Frame time comes from the swap timestamps, never from the file's own frame_ms column, so
    // the figures follow DESIGN 6 exactly whatever the writer rounded.
    series.frame_ms.push_back(static_cast<double>(rows[i].swap_ns - rows[i - 1].swap_ns) / 1e6);
    // The interval ending at swap i is frame i's time on screen; its GPU time is frame i's.
    if (c_gpu) series.gpu_ms.push_back(rows[i].gpu_ms);
    const int64_t skipped = rows[i].frame - rows[i - 1].frame - 1;
    if (skipped > 0) {
      if (gaps++ == 0) first_gap_line = rows[i].line;
      missing += skipped;
    }
  }
  if (gaps > 0) {
    // Kept, not dropped: the swaps around a gap are real, but each such interval spans more than
    // one frame, which the reader of the figures must know.
    series.notes.push_back(fmt::format(
        "{} gap(s) in the frame index (first at line {}): {} frame(s) not recorded; an interval "
        "across a gap spans more than one frame",
        gaps, first_gap_line, missing));
  }
  return series;
}

}  // namespace pictor::analysis
