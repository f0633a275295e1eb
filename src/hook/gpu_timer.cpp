#include "hook/gpu_timer.h"

#include <cstdio>
#include <cstring>

#include "hook/real.h"

namespace pictor::hook {

bool software_renderer(const char* r) noexcept {
  if (!r) return false;
  static const char* const kNames[] = {"llvmpipe", "softpipe", "Software Rasterizer", "SwiftShader"};
  for (const char* name : kNames)
    if (std::strstr(r, name)) return true;
  return false;
}

bool GpuTimer::init(Api api) noexcept {
  if (state_ != State::unknown) return state_ == State::ok;
  state_ = State::unavailable;
  auto get_string = reinterpret_cast<GetStringFn>(gl_proc(api, "glGetString"));
  const char* version = get_string ? reinterpret_cast<const char*>(get_string(GL_VERSION)) : nullptr;
  if (!version) {
    reason_ = "no GL version (no current context?)";
    return false;
  }
  const bool es = std::strncmp(version, "OpenGL ES", 9) == 0;
  const char* suffix = "";
  if (es) {
    const char* ext = reinterpret_cast<const char*>(get_string(GL_EXTENSIONS));
    if (!ext || !std::strstr(ext, "GL_EXT_disjoint_timer_query")) {
      reason_ = "OpenGL ES without GL_EXT_disjoint_timer_query";
      return false;
    }
    suffix = "EXT";
  } else {
    int major = 0, minor = 0;
    std::sscanf(version, "%d.%d", &major, &minor);
    const char* ext = major < 3 ? reinterpret_cast<const char*>(get_string(GL_EXTENSIONS)) : nullptr;
    const bool has_ext = ext && std::strstr(ext, "GL_ARB_timer_query");
    if (major * 10 + minor < 33 && !has_ext) {
      reason_ = "OpenGL < 3.3 without GL_ARB_timer_query";
      return false;
    }
  }
  char name[64];
  auto fn = [&](const char* base) {
    std::snprintf(name, sizeof name, "%s%s", base, suffix);
    return gl_proc(api, name);
  };
  gen_ = reinterpret_cast<PFNGLGENQUERIESPROC>(fn("glGenQueries"));
  begin_ = reinterpret_cast<PFNGLBEGINQUERYPROC>(fn("glBeginQuery"));
  end_ = reinterpret_cast<PFNGLENDQUERYPROC>(fn("glEndQuery"));
  get_iv_ = reinterpret_cast<PFNGLGETQUERYOBJECTIVPROC>(fn("glGetQueryObjectiv"));
  get_ui64_ = reinterpret_cast<PFNGLGETQUERYOBJECTUI64VPROC>(fn("glGetQueryObjectui64v"));
  delete_ = reinterpret_cast<PFNGLDELETEQUERIESPROC>(fn("glDeleteQueries"));
  if (!gen_ || !begin_ || !end_ || !get_iv_ || !get_ui64_ || !delete_) {
    reason_ = "timer-query entry points missing";
    return false;
  }
  target_ = GL_TIME_ELAPSED;  // same value as GL_TIME_ELAPSED_EXT
  gen_(kSlots, queries_);
  state_ = State::ok;
  reason_ = es ? "GL_TIME_ELAPSED_EXT timer query" : "GL_TIME_ELAPSED timer query";
  return true;
}

bool GpuTimer::end_frame() noexcept {
  if (state_ != State::ok || active_ < 0) return false;
  end_(target_);
  pending_[active_] = true;
  active_ = -1;
  return true;
}

void GpuTimer::begin_frame(std::uint64_t frame) noexcept {
  if (state_ != State::ok || active_ >= 0) return;
  if (pending_[next_]) return;  // result not read yet: leave this frame untimed, never wait
  begin_(target_, queries_[next_]);
  frame_of_[next_] = frame;
  discard_[next_] = false;
  active_ = next_;
  next_ = (next_ + 1) % kSlots;
}

void GpuTimer::abandon() noexcept {
  if (state_ != State::ok || active_ < 0) return;
  const int slot = active_;
  end_frame();
  discard_[slot] = true;
}

}  // namespace pictor::hook
