// The interposer's settings, read once from the environment when the library loads
// (PICTOR_OUT and friends, documented in docs/environment.md). Never re-read on a hot path.
#pragma once

namespace pictor::hook {

struct Config {
  // Directory the session files go to; empty = the hook only forwards (no recording).
  char out_dir[1024] = {};
  bool recording = false;
  bool gpu_timing = true;   // PICTOR_GPU_TIMING=0 turns timer queries off
  bool marker = false;      // PICTOR_MARKER=1 draws the tag marker into every frame
  bool marker_blit = true;  // PICTOR_MARKER_BLIT=0 keeps the scissored clears where a blit works
  int marker_corner = 0;    // PICTOR_MARKER_CORNER (tag::Corner as int), default bottom-left
};

const Config& config() noexcept;
void load_config() noexcept;

// Logs one line to stderr and OUT/hook.log ("pictor-hook: ..."); printf-style, never throws.
void log_line(const char* format, ...) noexcept __attribute__((format(printf, 1, 2)));

}  // namespace pictor::hook
