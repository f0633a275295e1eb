// The frame copy of an offloaded drawable (docs/offload.md): at glXSwapBuffers the pbuffer's
// pixels are read back from the render device (FC) and put into the app's X window (AS), with
// one of three strategies (config.h FrameCopy). Called on the app's render thread with the
// drawable's context current; allocates only when a window's size changes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hook/config.h"
#include "hook/hooks.h"
#include "hook/offload_api.h"

namespace pictor::hook {

// Where one drawable's frames go in X: the window, an image (MIT-SHM when the server has it)
// and, for the memo strategy, the slot of the window's cached geometry.
struct XTarget {
  Display* dpy = nullptr;
  Window window = 0;
  Visual* visual = nullptr;
  int depth = 0;
  int created_width = 0, created_height = 0;  // the window's size when the drawable was made
  int geometry_slot = -1;
  GC gc = nullptr;
  XImage* image = nullptr;
  XShmSegmentInfo shm{};
  bool shm_tried = false, shm_ok = false, shm_attached = false;
  std::vector<unsigned char> staging;  // bottom-up rows, where the read cannot flip them itself
};

// GL entry points of the copy, through the context's own GetProcAddress, and what it can do.
struct CopyGl {
  decltype(&::glReadPixels) read_pixels = nullptr;
  decltype(&::glGetIntegerv) get_integerv = nullptr;
  decltype(&::glPixelStorei) pixel_storei = nullptr;
  PFNGLBINDFRAMEBUFFERPROC bind_framebuffer = nullptr;
  PFNGLBINDBUFFERPROC bind_buffer = nullptr;
  PFNGLGENBUFFERSPROC gen_buffers = nullptr;
  PFNGLDELETEBUFFERSPROC delete_buffers = nullptr;
  PFNGLBUFFERDATAPROC buffer_data = nullptr;
  PFNGLMAPBUFFERRANGEPROC map_buffer_range = nullptr;
  PFNGLUNMAPBUFFERPROC unmap_buffer = nullptr;
  PFNGLFENCESYNCPROC fence_sync = nullptr;
  PFNGLCLIENTWAITSYNCPROC client_wait_sync = nullptr;
  PFNGLDELETESYNCPROC delete_sync = nullptr;
  decltype(&::glFlush) flush = nullptr;
  bool pack_invert = false;  // GL_MESA_pack_invert: the read itself turns the rows top-down
  bool async = false;        // pixel-buffer objects, map and fences: the async ring works
};

// One frame read into a pixel-buffer object, waiting for its fence (async).
struct PendingCopy {
  unsigned pbo = 0;
  std::size_t bytes = 0;
  GLsync fence = nullptr;
  XTarget* target = nullptr;  // null: its drawable went away, the copy ends without a put
  int width = 0, height = 0;
  std::int64_t fc_start_ns = -1, busy_ns = 0;
  DeferredFrame frame;
};

// Per context: its copy functions and its async ring (pixel-buffer objects are the context's).
struct CopyContext {
  static constexpr int kRing = 3;  // frames in flight before a swap waits: the newest, one finishing, one spare
  bool loaded = false;
  CopyGl gl;
  PendingCopy ring[kRing];
  std::uint64_t issued = 0, finished = 0;
};

// Copies the frame of `target` from the current context's framebuffer 0 (a pbuffer of
// pbuffer_w x pbuffer_h) with the configured strategy, filling scope.copy (or scope.defer with
// async). Returns the window's size as the strategy knows it in window_w/window_h (0 if unknown).
void copy_frame(CopyContext& cc, XTarget& target, int pbuffer_w, int pbuffer_h, SwapScope& scope, int& window_w,
                int& window_h) noexcept;
// The window's size as the strategy knows it: vgl asks the X server, memo/async use the cache.
bool window_size(XTarget& target, int& width, int& height) noexcept;
// Ends every pending copy of `cc` (its context current on this thread): put, recorded.
void finish_pending(CopyContext& cc) noexcept;
// Pending copies aimed at `target` end without a put (the drawable is going away).
void forget_target(CopyContext& cc, const XTarget* target) noexcept;
// Frees the pixel-buffer objects (context current) / the X image, GC and shared memory (display open).
void release_copy_gl(CopyContext& cc) noexcept;
void release_target(XTarget& target) noexcept;

// The memo strategy's geometry cache: a window is watched from its drawable's creation, and
// ConfigureNotify events the app reads update it (offload_note_configure).
int watch_window(Window window, int width, int height) noexcept;
void unwatch_window(int slot) noexcept;

std::uint64_t frames_put() noexcept;

}  // namespace pictor::hook
