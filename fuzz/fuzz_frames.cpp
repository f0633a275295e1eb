// Fuzz target: the frame-time importers (Pictor frames.csv, MangoHud, PresentMon) on any text, as
// `pictor analyze FILE` reads it, then the summary and its table. Properties: the series is
// consistent (one GPU time per interval, one timestamp more than intervals, no negative or
// non-finite frame time) and the summary and table are made without an exception.
#include "analysis/importers.h"
#include "analysis/summary.h"
#include "core/error.h"
#include "fuzz_check.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pictor::analysis;
  try {
    const FrameSeries s = read_frames_text(pictor::fuzz::as_text(data, size), "fuzz.csv");
    FUZZ_CHECK(s.gpu_ms.empty() || s.gpu_ms.size() == s.frame_ms.size());
    FUZZ_CHECK(s.swap_ns.empty() || s.swap_ns.size() == s.frame_ms.size() + 1);
    for (const double ms : s.frame_ms) FUZZ_CHECK(std::isfinite(ms) && ms >= 0);
    for (const double ms : s.gpu_ms) FUZZ_CHECK(std::isnan(ms) || (std::isfinite(ms) && ms >= 0));
    const nlohmann::json summary = summarize_frames(s);
    (void)format_frame_summary(summary);
    (void)summary.dump();
  } catch (const pictor::UsageError&) {
  }
  return 0;
}
