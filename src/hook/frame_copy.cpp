#include "hook/frame_copy.h"

#include <sys/ipc.h>
#include <sys/shm.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "core/clock.h"
#include "hook/offload.h"
#include "hook/writer.h"

namespace pictor::hook {

namespace {

std::atomic<std::uint64_t> g_puts{0};

void log_once(std::atomic<bool>& flag, const char* what) noexcept {
  if (!flag.exchange(true)) log_line("offload: %s", what);
}

// --- the memo strategy's window geometry ---------------------------------------------------

constexpr int kWatched = 32;
struct Geometry {
  std::atomic<unsigned long> window{0};
  std::atomic<std::uint32_t> size{0};  // width << 16 | height
};
Geometry g_geometry[kWatched];

std::uint32_t pack_size(int w, int h) noexcept {
  return static_cast<std::uint32_t>(std::clamp(w, 0, 0xffff)) << 16 | static_cast<std::uint32_t>(std::clamp(h, 0, 0xffff));
}

// --- GL ------------------------------------------------------------------------------------

template <typename Fn>
void load(Fn& slot, const char* name) noexcept {
  slot = reinterpret_cast<Fn>(offload_gl_proc(name));
}

int version_number(const char* v) noexcept {
  if (!v) return 0;
  if (std::strncmp(v, "OpenGL ES ", 10) == 0) v += 10;
  if (v[0] < '0' || v[0] > '9' || v[1] != '.' || v[2] < '0' || v[2] > '9') return 0;
  return (v[0] - '0') * 10 + (v[2] - '0');
}

bool has_extension(const char* name) noexcept {
  auto get_string = reinterpret_cast<GetStringFn>(offload_gl_proc("glGetString"));
  auto get_stringi = reinterpret_cast<PFNGLGETSTRINGIPROC>(offload_gl_proc("glGetStringi"));
  auto get_integerv = reinterpret_cast<decltype(&::glGetIntegerv)>(offload_gl_proc("glGetIntegerv"));
  if (!get_string) return false;
  const int version = version_number(reinterpret_cast<const char*>(get_string(GL_VERSION)));
  if (version >= 30 && get_stringi && get_integerv) {
    // Core profiles have no GL_EXTENSIONS string.
    GLint n = 0;
    get_integerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i) {
      const auto* e = reinterpret_cast<const char*>(get_stringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
      if (e && std::strcmp(e, name) == 0) return true;
    }
    return false;
  }
  const auto* all = reinterpret_cast<const char*>(get_string(GL_EXTENSIONS));
  if (!all) return false;
  const std::size_t len = std::strlen(name);
  for (const char* p = std::strstr(all, name); p; p = std::strstr(p + 1, name))
    if ((p == all || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
  return false;
}

void load_copy_gl(CopyContext& cc) noexcept {
  cc.loaded = true;
  CopyGl& g = cc.gl;
  load(g.read_pixels, "glReadPixels");
  load(g.get_integerv, "glGetIntegerv");
  load(g.pixel_storei, "glPixelStorei");
  load(g.flush, "glFlush");
  auto get_string = reinterpret_cast<GetStringFn>(offload_gl_proc("glGetString"));
  const int version = get_string ? version_number(reinterpret_cast<const char*>(get_string(GL_VERSION))) : 0;
  // Framebuffer objects from 3.0, fences from 3.2 (3.0 on GLES, counted the same here).
  if (version >= 30) load(g.bind_framebuffer, "glBindFramebuffer");
  // Pixel-buffer objects from 2.1: an app's bound one is set aside while the read goes to memory.
  if (version >= 21) load(g.bind_buffer, "glBindBuffer");
  if (version >= 32) {
    load(g.gen_buffers, "glGenBuffers");
    load(g.delete_buffers, "glDeleteBuffers");
    load(g.buffer_data, "glBufferData");
    load(g.map_buffer_range, "glMapBufferRange");
    load(g.unmap_buffer, "glUnmapBuffer");
    load(g.fence_sync, "glFenceSync");
    load(g.client_wait_sync, "glClientWaitSync");
    load(g.delete_sync, "glDeleteSync");
  }
  g.async = g.bind_buffer && g.gen_buffers && g.delete_buffers && g.buffer_data && g.map_buffer_range &&
            g.unmap_buffer && g.fence_sync && g.client_wait_sync && g.delete_sync && g.flush;
  g.pack_invert = has_extension("GL_MESA_pack_invert");
  if (config().frame_copy == FrameCopy::async && !g.async) {
    static std::atomic<bool> logged{false};
    log_once(logged, "the context has no pixel-buffer objects or fences (GL < 3.2): async copies as memo does");
  }
}

// The app's pixel-pack state, read-framebuffer and pack-buffer bindings, set for our read and
// put back after it.
class PackState {
 public:
  PackState(const CopyGl& g, GLint row_length, GLuint pack_buffer) noexcept : g_(g) {
    g.get_integerv(GL_PACK_ALIGNMENT, &alignment_);
    g.get_integerv(GL_PACK_ROW_LENGTH, &row_length_);
    g.get_integerv(GL_PACK_SKIP_ROWS, &skip_rows_);
    g.get_integerv(GL_PACK_SKIP_PIXELS, &skip_pixels_);
    if (g.bind_framebuffer) {
      g.get_integerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo_);
      if (read_fbo_ != 0) g.bind_framebuffer(GL_READ_FRAMEBUFFER, 0);
    }
    if (g.bind_buffer) {
      g.get_integerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer_);
      if (static_cast<GLuint>(pack_buffer_) != pack_buffer) g.bind_buffer(GL_PIXEL_PACK_BUFFER, pack_buffer);
    }
    wanted_buffer_ = pack_buffer;
    g.pixel_storei(GL_PACK_ALIGNMENT, 4);
    g.pixel_storei(GL_PACK_ROW_LENGTH, row_length);
    g.pixel_storei(GL_PACK_SKIP_ROWS, 0);
    g.pixel_storei(GL_PACK_SKIP_PIXELS, 0);
    if (g.pack_invert) g.pixel_storei(GL_PACK_INVERT_MESA, 1);
  }
  ~PackState() {
    if (g_.pack_invert) g_.pixel_storei(GL_PACK_INVERT_MESA, 0);
    g_.pixel_storei(GL_PACK_ALIGNMENT, alignment_);
    g_.pixel_storei(GL_PACK_ROW_LENGTH, row_length_);
    g_.pixel_storei(GL_PACK_SKIP_ROWS, skip_rows_);
    g_.pixel_storei(GL_PACK_SKIP_PIXELS, skip_pixels_);
    if (g_.bind_framebuffer && read_fbo_ != 0) g_.bind_framebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo_));
    if (g_.bind_buffer && static_cast<GLuint>(pack_buffer_) != wanted_buffer_)
      g_.bind_buffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer_));
  }
  PackState(const PackState&) = delete;
  PackState& operator=(const PackState&) = delete;

 private:
  const CopyGl& g_;
  GLint alignment_ = 4, row_length_ = 0, skip_rows_ = 0, skip_pixels_ = 0, read_fbo_ = 0, pack_buffer_ = 0;
  GLuint wanted_buffer_ = 0;
};

// --- X -------------------------------------------------------------------------------------

void destroy_image(XTarget& t) noexcept {
  if (!t.image) return;
  const XApi& x = x_api();
  if (t.shm_attached) {
    x.ShmDetach(t.dpy, &t.shm);
    x.Sync(t.dpy, False);
    t.image->data = nullptr;  // the segment is ours to detach, not Xlib's to free
    XDestroyImage(t.image);
    shmdt(t.shm.shmaddr);
    t.shm = {};
    t.shm_attached = false;
  } else {
    XDestroyImage(t.image);  // frees the malloc'd pixels too
  }
  t.image = nullptr;
}

XImage* shm_image(XTarget& t, int w, int h) noexcept {
  const XApi& x = x_api();
  XImage* img = x.ShmCreateImage(t.dpy, t.visual, static_cast<unsigned>(t.depth), ZPixmap, nullptr, &t.shm,
                                 static_cast<unsigned>(w), static_cast<unsigned>(h));
  if (!img) return nullptr;
  const auto bytes = static_cast<std::size_t>(img->bytes_per_line) * static_cast<std::size_t>(h);
  t.shm.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
  if (t.shm.shmid < 0) {
    XDestroyImage(img);
    return nullptr;
  }
  t.shm.shmaddr = static_cast<char*>(shmat(t.shm.shmid, nullptr, 0));
  if (t.shm.shmaddr == reinterpret_cast<char*>(-1)) {
    shmctl(t.shm.shmid, IPC_RMID, nullptr);
    XDestroyImage(img);
    return nullptr;
  }
  img->data = t.shm.shmaddr;
  t.shm.readOnly = False;
  // A server that cannot reach our memory (another host) refuses the attach: caught here, not
  // in the app's error handler.
  bool refused = false;
  {
    XErrorTrap trap(t.dpy);
    x.ShmAttach(t.dpy, &t.shm);
    refused = trap.failed();
  }
  shmctl(t.shm.shmid, IPC_RMID, nullptr);  // freed once both sides detach
  if (refused) {
    img->data = nullptr;
    XDestroyImage(img);
    shmdt(t.shm.shmaddr);
    t.shm = {};
    return nullptr;
  }
  t.shm_attached = true;
  return img;
}

bool ensure_image(XTarget& t, int w, int h) noexcept {
  if (t.image && t.image->width == w && t.image->height == h) return true;
  destroy_image(t);
  const XApi& x = x_api();
  if (!t.gc) t.gc = x.CreateGC(t.dpy, t.window, 0, nullptr);
  if (!t.shm_tried) {
    t.shm_tried = true;
    t.shm_ok = x.ShmQueryExtension && x.ShmCreateImage && x.ShmAttach && x.ShmDetach && x.ShmPutImage &&
               x.ShmQueryExtension(t.dpy);
    if (!t.shm_ok) {
      static std::atomic<bool> logged{false};
      log_once(logged, "no MIT-SHM on this display: frames are put with XPutImage");
    }
  }
  if (t.shm_ok) {
    t.image = shm_image(t, w, h);
    if (!t.image) {
      t.shm_ok = false;
      static std::atomic<bool> logged{false};
      log_once(logged, "MIT-SHM refused (the server cannot attach our memory): frames are put with XPutImage");
    }
  }
  if (!t.image) {
    const auto bytes = static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4;
    char* data = static_cast<char*>(std::malloc(bytes));
    if (!data) return false;
    t.image = x.CreateImage(t.dpy, t.visual, static_cast<unsigned>(t.depth), ZPixmap, 0, data,
                            static_cast<unsigned>(w), static_cast<unsigned>(h), 32, w * 4);
    if (!t.image) {
      std::free(data);
      return false;
    }
  }
  if (t.image->bits_per_pixel != 32 || t.image->byte_order != LSBFirst) {
    static std::atomic<bool> logged{false};
    log_once(logged, "the window's visual is not 32-bit little-endian BGRX: frames are not put");
    destroy_image(t);
    return false;
  }
  return true;
}

// Bottom-up rows of w x h BGRA pixels (GL's order) into the image, top-down.
void copy_rows(const unsigned char* src, bool src_top_down, XImage& img, int w, int h) noexcept {
  const auto row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h; ++y) {
    const int from = src_top_down ? y : h - 1 - y;
    std::memcpy(img.data + static_cast<std::ptrdiff_t>(y) * img.bytes_per_line, src + static_cast<std::size_t>(from) * row,
                row);
  }
}

void put(XTarget& t, int w, int h, CopyTimes& times) noexcept {
  const XApi& x = x_api();
  times.as_start_ns = monotonic_ns();
  if (t.shm_attached) {
    x.ShmPutImage(t.dpy, t.window, t.gc, t.image, 0, 0, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h),
                  False);
    // The server reads the segment while it handles the request: the next frame may only be
    // written into it once that is done.
    x.Sync(t.dpy, False);
  } else {
    x.PutImage(t.dpy, t.window, t.gc, t.image, 0, 0, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h));
    x.Flush(t.dpy);
  }
  times.as_end_ns = monotonic_ns();
  g_puts.fetch_add(1, std::memory_order_relaxed);
}

// --- the strategies ------------------------------------------------------------------------

void copy_sync(CopyContext& cc, XTarget& t, int w, int h, CopyTimes& times) noexcept {
  const CopyGl& g = cc.gl;
  if (!ensure_image(t, w, h)) return;
  {
    PackState state(g, g.pack_invert ? t.image->bytes_per_line / 4 : 0, 0);
    if (g.pack_invert) {
      g.read_pixels(0, 0, w, h, GL_BGRA, GL_UNSIGNED_BYTE, t.image->data);
    } else {
      const auto bytes = static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4;
      if (t.staging.size() < bytes) t.staging.resize(bytes);
      g.read_pixels(0, 0, w, h, GL_BGRA, GL_UNSIGNED_BYTE, t.staging.data());
    }
  }
  if (!g.pack_invert) copy_rows(t.staging.data(), false, *t.image, w, h);
  times.fc_end_ns = monotonic_ns();
  times.fc_busy_ns = times.fc_end_ns - times.fc_start_ns;
  put(t, w, h, times);
}

// Ends the oldest pending copy: waits for its fence (already signalled unless the ring is
// full), maps its buffer, puts the frame and pushes the frame's record.
void finish_oldest(CopyContext& cc) noexcept {
  PendingCopy& p = cc.ring[cc.finished % CopyContext::kRing];
  ++cc.finished;
  const CopyGl& g = cc.gl;
  const std::int64_t t0 = monotonic_ns();
  CopyTimes times;
  times.fc_start_ns = p.fc_start_ns;
  bool ok = false;
  if (p.fence) {
    constexpr GLuint64 kWaitNs = 2'000'000'000;  // a device that takes longer has stalled: the frame is dropped
    const GLenum r = g.client_wait_sync(p.fence, GL_SYNC_FLUSH_COMMANDS_BIT, kWaitNs);
    g.delete_sync(p.fence);
    p.fence = nullptr;
    ok = r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
    if (!ok) {
      static std::atomic<bool> logged{false};
      log_once(logged, "a frame's copy did not finish within 2 s: that frame is not put");
    }
  }
  if (ok && p.target && ensure_image(*p.target, p.width, p.height)) {
    GLint previous = 0;
    g.get_integerv(GL_PIXEL_PACK_BUFFER_BINDING, &previous);
    g.bind_buffer(GL_PIXEL_PACK_BUFFER, p.pbo);
    const void* pixels = g.map_buffer_range(GL_PIXEL_PACK_BUFFER, 0, static_cast<GLsizeiptr>(p.bytes), GL_MAP_READ_BIT);
    if (pixels) {
      copy_rows(static_cast<const unsigned char*>(pixels), g.pack_invert, *p.target->image, p.width, p.height);
      g.unmap_buffer(GL_PIXEL_PACK_BUFFER);
    }
    g.bind_buffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(previous));
    if (pixels) {
      times.fc_end_ns = monotonic_ns();
      times.fc_busy_ns = p.busy_ns + (times.fc_end_ns - t0);
      put(*p.target, p.width, p.height, times);
    }
  }
  if (p.frame.held) {
    HookRecord& r = p.frame.record;
    r.fc_ns = times.fc_busy_ns;
    r.fc_start_ns = times.fc_start_ns;
    r.fc_end_ns = times.fc_end_ns;
    r.as_start_ns = times.as_start_ns;
    r.as_end_ns = times.as_end_ns;
    push_record(r);
    p.frame.held = false;
  }
  p.target = nullptr;
}

void copy_async(CopyContext& cc, XTarget& t, int w, int h, SwapScope& scope) noexcept {
  const CopyGl& g = cc.gl;
  // A full ring: the oldest frame is waited for (the only wait on the app's thread).
  if (cc.issued - cc.finished == CopyContext::kRing) finish_oldest(cc);
  PendingCopy& p = cc.ring[cc.issued % CopyContext::kRing];
  const auto bytes = static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4;
  GLint previous = 0;
  g.get_integerv(GL_PIXEL_PACK_BUFFER_BINDING, &previous);
  if (!p.pbo) g.gen_buffers(1, &p.pbo);
  g.bind_buffer(GL_PIXEL_PACK_BUFFER, p.pbo);
  if (p.bytes != bytes) {
    g.buffer_data(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_READ);
    p.bytes = bytes;
  }
  {
    PackState state(g, 0, p.pbo);
    g.read_pixels(0, 0, w, h, GL_BGRA, GL_UNSIGNED_BYTE, nullptr);
  }
  g.bind_buffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(previous));
  p.fence = g.fence_sync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  g.flush();  // the device starts on the read now; the fence is looked at next swap
  p.target = &t;
  p.width = w;
  p.height = h;
  p.fc_start_ns = scope.copy.fc_start_ns;
  p.busy_ns = monotonic_ns() - scope.copy.fc_start_ns;
  p.frame.held = false;
  scope.copy = {};  // this frame's times come when its copy ends
  scope.defer = &p.frame;
  ++cc.issued;
  // Older frames whose fence has signalled go to X now, in order; the newest waits at least
  // until the next swap (its record is filled after this returns).
  while (cc.issued - cc.finished > 1) {
    PendingCopy& oldest = cc.ring[cc.finished % CopyContext::kRing];
    const GLenum r = oldest.fence ? g.client_wait_sync(oldest.fence, 0, 0) : GL_ALREADY_SIGNALED;
    if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED) break;
    finish_oldest(cc);
  }
}

}  // namespace

bool window_size(XTarget& t, int& width, int& height) noexcept {
  if (config().frame_copy == FrameCopy::vgl || t.geometry_slot < 0) {
    if (config().frame_copy != FrameCopy::vgl) {
      // Not watched (more windows than the cache holds): the size it had when it was made.
      width = t.created_width;
      height = t.created_height;
      return width > 0 && height > 0;
    }
    XWindowAttributes wa;
    if (!x_api().GetWindowAttributes(t.dpy, t.window, &wa)) return false;
    width = wa.width;
    height = wa.height;
    return true;
  }
  const std::uint32_t s = g_geometry[t.geometry_slot].size.load(std::memory_order_relaxed);
  width = static_cast<int>(s >> 16);
  height = static_cast<int>(s & 0xffff);
  return width > 0 && height > 0;
}

void copy_frame(CopyContext& cc, XTarget& t, int pbuffer_w, int pbuffer_h, SwapScope& scope, int& window_w,
                int& window_h) noexcept {
  window_w = window_h = 0;
  if (!cc.loaded) load_copy_gl(cc);
  const CopyGl& g = cc.gl;
  if (!g.read_pixels || !g.get_integerv || !g.pixel_storei) {
    static std::atomic<bool> logged{false};
    log_once(logged, "glReadPixels is missing: frames are not copied");
    return;
  }
  // FC starts with the window's geometry: a round trip to the X server for vgl, a cache for the others.
  scope.copy.fc_start_ns = monotonic_ns();
  int ww = 0, wh = 0;
  if (!window_size(t, ww, wh)) {
    scope.copy = {};
    finish_pending(cc);  // frames stay in order: a frame not copied goes after those in flight
    return;
  }
  window_w = ww;
  window_h = wh;
  const int w = std::min(pbuffer_w, ww), h = std::min(pbuffer_h, wh);
  if (w <= 0 || h <= 0) {
    scope.copy = {};
    finish_pending(cc);
    return;
  }
  if (config().frame_copy == FrameCopy::async && g.async) {
    copy_async(cc, t, w, h, scope);
  } else {
    finish_pending(cc);
    copy_sync(cc, t, w, h, scope.copy);
  }
}

void finish_pending(CopyContext& cc) noexcept {
  while (cc.issued != cc.finished) finish_oldest(cc);
}

void forget_target(CopyContext& cc, const XTarget* target) noexcept {
  for (PendingCopy& p : cc.ring)
    if (p.target == target) p.target = nullptr;
}

void release_copy_gl(CopyContext& cc) noexcept {
  if (!cc.gl.delete_buffers) return;
  for (PendingCopy& p : cc.ring) {
    if (p.fence) cc.gl.delete_sync(p.fence);
    p.fence = nullptr;
    if (p.pbo) cc.gl.delete_buffers(1, &p.pbo);
    p.pbo = 0;
    p.bytes = 0;
  }
}

void release_target(XTarget& t) noexcept {
  if (!t.dpy) return;
  destroy_image(t);
  if (t.gc) x_api().FreeGC(t.dpy, t.gc);
  t.gc = nullptr;
  unwatch_window(t.geometry_slot);
  t.geometry_slot = -1;
}

int watch_window(Window window, int width, int height) noexcept {
  for (int i = 0; i < kWatched; ++i) {
    unsigned long expected = 0;
    if (g_geometry[i].window.load() == window ||
        g_geometry[i].window.compare_exchange_strong(expected, window)) {
      g_geometry[i].size.store(pack_size(width, height));
      return i;
    }
  }
  static std::atomic<bool> logged{false};
  log_once(logged, "more than 32 windows: further ones keep the size they were made with");
  return -1;
}

void unwatch_window(int slot) noexcept {
  if (slot >= 0 && slot < kWatched) g_geometry[slot].window.store(0);
}

void offload_note_configure(unsigned long window, int width, int height) noexcept {
  for (Geometry& g : g_geometry)
    if (window != 0 && g.window.load(std::memory_order_relaxed) == window)
      g.size.store(pack_size(width, height), std::memory_order_relaxed);
}

std::uint64_t frames_put() noexcept { return g_puts.load(std::memory_order_relaxed); }

}  // namespace pictor::hook
