// GLX offload (PICTOR_RENDER=offload, docs/offload.md): the interposer serves the app's GLX from
// EGL contexts on a render device, each GLX drawable backed by an EGL pbuffer whose frames are
// copied into the X server at every swap (frame_copy.h). What the hooks outside call.
#pragma once
#include <cstdint>
#include <string>

#include "hook/config.h"

namespace pictor::hook {

inline bool offload_on() noexcept { return config().render == RenderMode::offload; }

// A GL entry point through the offload's eglGetProcAddress (null when EGL is unusable).
void* offload_gl_proc(const char* name) noexcept;
// The GLXContext / Display current on this thread as the offload GLX sees them.
void* offload_current_context() noexcept;
void* offload_current_display() noexcept;
// Before XCloseDisplay: frames of that display still waiting for their copy are put, and the
// display's drawables forget their X resources.
void offload_display_closing(void* display) noexcept;
// A ConfigureNotify the app read (x11_hooks, xcb_hooks): the memo strategy's window geometry.
void offload_note_configure(unsigned long window, int width, int height) noexcept;

// Frames put into X so far (hook.json's "frames_put").
std::uint64_t offload_frames_put() noexcept;
// hook.json's offload part, `, "render": …, "offload": {…}`; empty when offload is off.
std::string offload_json();

}  // namespace pictor::hook
