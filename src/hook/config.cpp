#include "hook/config.h"

#include "tag/marker_layout.h"
#include "tag/overlay_panel.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pictor::hook {

static Config g_config;

const Config& config() noexcept { return g_config; }

static bool env_flag(const char* name, bool fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  return !(std::strcmp(v, "0") == 0 || std::strcmp(v, "false") == 0 || std::strcmp(v, "off") == 0);
}

void load_config() noexcept {
  if (const char* out = std::getenv("PICTOR_OUT"); out && *out) {
    std::snprintf(g_config.out_dir, sizeof g_config.out_dir, "%s", out);
    g_config.recording = true;
  }
  g_config.gpu_timing = env_flag("PICTOR_GPU_TIMING", true);
  if (const char* t = std::getenv("PICTOR_GPU_TIMING"); t && *t) g_config.gpu_timing_forced = g_config.gpu_timing;
  g_config.marker = env_flag("PICTOR_MARKER", false);
  g_config.marker_blit = env_flag("PICTOR_MARKER_BLIT", true);
  if (const char* c = std::getenv("PICTOR_MARKER_CORNER"); c && *c) {
    try {
      g_config.marker_corner = static_cast<int>(tag::parse_corner(c));
    } catch (...) {
      log_line("PICTOR_MARKER_CORNER=%s is not a corner; using bottom-left", c);
    }
  }
  g_config.overlay = env_flag("PICTOR_OVERLAY", false);
  if (const char* k = std::getenv("PICTOR_OVERLAY_KEY"); k && *k) {
    tag::OverlayKey key;
    if (tag::parse_overlay_key(k, key)) {
      g_config.overlay_key_mods = key.mods;
      g_config.overlay_key_sym = key.keysym;
      g_config.overlay_key_code = key.keycode;
    } else {
      log_line("PICTOR_OVERLAY_KEY=%s is not [Shift+|Ctrl+|Alt+|Super+]F1..F12; using Shift+F12", k);
    }
  }
  if (const char* r = std::getenv("PICTOR_RENDER"); r && *r) {
    if (std::strcmp(r, "offload") == 0) g_config.render = RenderMode::offload;
    else if (std::strcmp(r, "native") != 0) log_line("PICTOR_RENDER=%s is not native or offload; using native", r);
  }
  if (const char* f = std::getenv("PICTOR_FRAME_COPY"); f && *f) {
    if (std::strcmp(f, "vgl") == 0) g_config.frame_copy = FrameCopy::vgl;
    else if (std::strcmp(f, "memo") == 0) g_config.frame_copy = FrameCopy::memo;
    else if (std::strcmp(f, "async") == 0) g_config.frame_copy = FrameCopy::async;
    else log_line("PICTOR_FRAME_COPY=%s is not vgl, memo or async; using vgl", f);
  }
  if (const char* d = std::getenv("PICTOR_OFFLOAD_DEVICE"); d && *d)
    std::snprintf(g_config.offload_device, sizeof g_config.offload_device, "%s", d);
  g_config.active = g_config.recording || g_config.overlay;
}

const char* frame_copy_name(FrameCopy f) noexcept {
  switch (f) {
    case FrameCopy::memo: return "memo";
    case FrameCopy::async: return "async";
    case FrameCopy::vgl: break;
  }
  return "vgl";
}

void log_line(const char* format, ...) noexcept {
  char line[512];
  int n = std::snprintf(line, sizeof line, "pictor-hook[%d]: ", static_cast<int>(getpid()));
  va_list args;
  va_start(args, format);
  n += std::vsnprintf(line + n, sizeof line - static_cast<std::size_t>(n), format, args);
  va_end(args);
  if (n >= static_cast<int>(sizeof line) - 1) n = sizeof line - 2;
  line[n++] = '\n';
  [[maybe_unused]] auto w = ::write(2, line, static_cast<std::size_t>(n));
  if (g_config.recording) {
    char path[1100];
    std::snprintf(path, sizeof path, "%s/hook.log", g_config.out_dir);
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
      w = ::write(fd, line, static_cast<std::size_t>(n));
      ::close(fd);
    }
  }
}

}  // namespace pictor::hook
