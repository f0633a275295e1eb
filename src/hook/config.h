// The interposer's settings, read once from the environment when the library loads
// (PICTOR_OUT and friends, documented in docs/environment.md). Never re-read on a hot path.
#pragma once

#include <cstdint>

namespace pictor::hook {

enum class RenderMode : std::uint8_t { native, offload };
// How an offloaded frame reaches the X server (docs/offload.md): vgl = VirtualGL's per-frame
// geometry query and synchronous read; memo = the geometry cached from ConfigureNotify; async =
// memo plus a pixel-buffer ring that finishes frame i's copy at a later swap.
enum class FrameCopy : std::uint8_t { vgl, memo, async };
const char* frame_copy_name(FrameCopy f) noexcept;

struct Config {
  // Directory the session files go to; empty = the hook only forwards (no recording).
  char out_dir[1024] = {};
  bool recording = false;
  // PICTOR_GPU_TIMING: unset = on for a hardware renderer and off for a software one (whose
  // timer queries do not hold its rasterisation: gpu_timer.h), 1 = on everywhere, 0 = off.
  bool gpu_timing = true;
  bool gpu_timing_forced = false;  // PICTOR_GPU_TIMING given and not 0: time software renderers too
  bool marker = false;      // PICTOR_MARKER=1 draws the tag marker into every frame
  bool marker_blit = true;  // PICTOR_MARKER_BLIT=0 keeps the scissored clears where a blit works
  int marker_corner = 0;    // PICTOR_MARKER_CORNER (tag::Corner as int), default bottom-left
  bool overlay = false;     // PICTOR_OVERLAY=1 draws the in-app panel (docs/overlay.md)
  // PICTOR_OVERLAY_KEY, default Shift+F12: the X modifier bits that must be down (of Shift,
  // Control, Mod1, Mod4), the key's keysym (Xlib path) and its evdev keycode (XCB path).
  unsigned overlay_key_mods = 1;
  unsigned overlay_key_sym = 0xffc9;
  unsigned overlay_key_code = 96;
  bool active = false;      // recording or overlay: the GL hooks track contexts and swaps
  // PICTOR_RENDER=offload: the interposer serves the app's GLX itself from an EGL context and
  // copies every frame into the X server (docs/offload.md); native (default): GLX is the real one.
  RenderMode render = RenderMode::native;
  FrameCopy frame_copy = FrameCopy::vgl;  // PICTOR_FRAME_COPY: vgl (default), memo, async
  char offload_device[256] = {};          // PICTOR_OFFLOAD_DEVICE: empty = first EGL device
};

// The modifier bits PICTOR_OVERLAY_KEY can name (ShiftMask, ControlMask, Mod1Mask, Mod4Mask).
inline constexpr unsigned kOverlayModMask = 0x1 | 0x4 | 0x8 | 0x40;


const Config& config() noexcept;
void load_config() noexcept;

// Logs one line to stderr and OUT/hook.log ("pictor-hook: ..."); printf-style, never throws.
void log_line(const char* format, ...) noexcept __attribute__((format(printf, 1, 2)));

}  // namespace pictor::hook
