// GPU time per frame from GL_TIME_ELAPSED queries kept in a ring and read a few frames late
// without ever waiting: a query not ready when its slot is needed means that frame goes untimed.
// On llvmpipe the result is the command-submission time, not rasterisation (docs/frames.md).
#pragma once
#include <cstdint>

#include "hook/gl_api.h"
#include "hook/real.h"

namespace pictor::hook {

// A software rasteriser by its GL_RENDERER string (Mesa's llvmpipe and softpipe, its old
// "Software Rasterizer", SwiftShader). Their timer queries are not the frame's render time:
// llvmpipe bins a query's begin and end into every tile and rasterises after the end (its raster
// threads run at the swap), so GL_TIME_ELAPSED holds command submission, while the query work
// costs ~44 000 instructions a frame at 1280x720 (docs/performance.md). Timing is off there by
// default (PICTOR_GPU_TIMING=1 forces it).
bool software_renderer(const char* gl_renderer) noexcept;

class GpuTimer {
 public:
  static constexpr int kSlots = 8;

  // Resolves GL entry points through the context's GetProcAddress and checks support; must run
  // with the context current. Returns false (and keeps the reason) when timing is unavailable.
  bool init(Api api) noexcept;
  bool usable() const noexcept { return state_ == State::ok; }
  const char* reason() const noexcept { return reason_; }

  // Ends the query of the frame now being swapped; returns true if that frame was timed.
  bool end_frame() noexcept;
  // Starts timing `frame` (the next one) when a slot is free.
  void begin_frame(std::uint64_t frame) noexcept;
  // Reads finished results (oldest first), calling emit(frame, ns) for each.
  template <typename Emit>
  void collect(Emit&& emit) noexcept;
  // Ends an active query without recording it (context about to be unbound).
  void abandon() noexcept;
  // The context is about to be destroyed (glXDestroyContext, or XCloseDisplay of its display)
  // and is current: ends the active query, waits for every query still in flight, emits their
  // results (oldest first) and deletes them all. Mesa's llvmpipe writes a query's result from its
  // rasteriser threads; a context torn down with one still in flight had those threads write into
  // freed memory (glmark2, which never destroys its context and just closes the display, aborted
  // with a corrupted heap in ~5 % of runs on a loaded machine). Waiting costs at most a frame,
  // once, at teardown. Timing stays off afterwards.
  template <typename Emit>
  void retire(Emit&& emit) noexcept;

 private:
  // Emits finished results oldest first; `wait`: every pending one, waiting for each.
  template <typename Emit>
  void read_results(Emit&& emit, bool wait) noexcept;

  enum class State : std::uint8_t { unknown, ok, unavailable };
  State state_ = State::unknown;
  const char* reason_ = "not initialised";
  GLenum target_ = 0;
  PFNGLGENQUERIESPROC gen_ = nullptr;
  PFNGLBEGINQUERYPROC begin_ = nullptr;
  PFNGLENDQUERYPROC end_ = nullptr;
  PFNGLGETQUERYOBJECTIVPROC get_iv_ = nullptr;
  PFNGLGETQUERYOBJECTUI64VPROC get_ui64_ = nullptr;
  PFNGLDELETEQUERIESPROC delete_ = nullptr;
  GLuint queries_[kSlots] = {};
  std::uint64_t frame_of_[kSlots] = {};
  bool pending_[kSlots] = {};
  bool discard_[kSlots] = {};
  int active_ = -1;
  int next_ = 0;
  int oldest_ = 0;
};

template <typename Emit>
void GpuTimer::read_results(Emit&& emit, bool wait) noexcept {
  // Results become available in submission order, so stop at the first one not ready.
  for (int n = 0; n < kSlots && pending_[oldest_]; ++n) {
    if (!wait) {
      GLint available = 0;
      get_iv_(queries_[oldest_], GL_QUERY_RESULT_AVAILABLE, &available);
      if (!available) break;
    }
    GLuint64 ns = 0;
    get_ui64_(queries_[oldest_], GL_QUERY_RESULT, &ns);  // waits when the result is not in yet
    if (!discard_[oldest_]) emit(frame_of_[oldest_], static_cast<std::int64_t>(ns));
    pending_[oldest_] = false;
    discard_[oldest_] = false;
    oldest_ = (oldest_ + 1) % kSlots;
  }
}

template <typename Emit>
void GpuTimer::collect(Emit&& emit) noexcept {
  if (state_ == State::ok) read_results(emit, false);
}

template <typename Emit>
void GpuTimer::retire(Emit&& emit) noexcept {
  if (state_ != State::ok) return;
  abandon();
  read_results(emit, true);
  delete_(kSlots, queries_);
  state_ = State::unavailable;
  reason_ = "context destroyed";
}

}  // namespace pictor::hook
