#include <cstring>

#include "core/clock.h"
#include "hook/config.h"
#include "hook/hooks.h"
#include "hook/real.h"
#include "hook/writer.h"

namespace pictor::hook {

static void* current_context_handle(Api api) noexcept {
  using GetCtx = void* (*)();
  static std::atomic<GetCtx> glx{nullptr}, egl{nullptr};
  auto& slot = api == Api::glx ? glx : egl;
  GetCtx fn = slot.load(std::memory_order_relaxed);
  if (!fn) {
    const char* name = api == Api::glx ? "glXGetCurrentContext" : "eglGetCurrentContext";
    void* p = real_dlsym(RTLD_NEXT, name);
    if (!p) {
      if (void* h = dlopen(api == Api::glx ? "libGL.so.1" : "libEGL.so.1", RTLD_LAZY | RTLD_NOLOAD))
        p = real_dlsym(h, name);
    }
    fn = reinterpret_cast<GetCtx>(p);
    slot.store(fn, std::memory_order_relaxed);
  }
  return fn ? fn() : nullptr;
}

static void first_frame_setup(ContextState& ctx) noexcept {
  ctx.gpu_initialised = true;
  if (config().gpu_timing) ctx.gpu.init(ctx.api);
  // GL strings of the first context that swaps go to hook.json (run.json's renderer info).
  void* gs = nullptr;
  if (ctx.api == Api::egl) {
    if (auto gpa = PICTOR_REAL(eglGetProcAddress, egl)) gs = reinterpret_cast<void*>(gpa("glGetString"));
  } else if (auto gpa = PICTOR_REAL(glXGetProcAddressARB, gl)) {
    gs = reinterpret_cast<void*>(gpa(reinterpret_cast<const GLubyte*>("glGetString")));
  }
  auto get_string = reinterpret_cast<GetStringFn>(gs);
  auto str = [&](GLenum e) {
    return get_string ? reinterpret_cast<const char*>(get_string(e)) : nullptr;
  };
  note_gl_info(str(GL_RENDERER), str(GL_VERSION), str(GL_VENDOR), ctx.api == Api::egl ? "EGL" : "GLX",
               config().gpu_timing ? ctx.gpu.reason() : "off (PICTOR_GPU_TIMING=0)");
}

SwapScope before_swap(Api api) noexcept {
  SwapScope s;
  s.t_call = monotonic_ns();
  if (!config().recording) return s;
  ContextState*& current = current_context();
  if (!current) current = context_state(current_context_handle(api), api);
  s.ctx = current;
  if (!s.ctx) return s;
  if (!s.ctx->gpu_initialised) first_frame_setup(*s.ctx);
  s.gpu_timed = s.ctx->gpu.end_frame();
  return s;
}

void after_swap(SwapScope& s) noexcept {
  if (!s.ctx) return;
  const std::int64_t t_return = monotonic_ns();
  ContextState& ctx = *s.ctx;
  HookRecord f;
  f.kind = HookRecordKind::frame;
  f.ctx = ctx.id;
  f.flags = s.gpu_timed ? kGpuPending : 0;
  f.frame = ctx.frame;
  f.swap_ns = s.t_call;
  f.return_ns = t_return;
  push_record(f);
  // After the frame's own record, so the writer always sees a frame before its GPU result.
  ctx.gpu.collect([&](std::uint64_t frame, std::int64_t ns) {
    HookRecord g;
    g.kind = HookRecordKind::gpu;
    g.ctx = ctx.id;
    g.frame = frame;
    g.value = ns;
    push_record(g);
  });
  ++ctx.frame;
  ctx.gpu.begin_frame(ctx.frame);
}

void before_unbind() noexcept {
  if (ContextState* c = current_context()) c->gpu.abandon();
}

void after_bind(void* context, Api api) noexcept {
  if (!config().recording) return;
  current_context() = context ? context_state(context, api) : nullptr;
}

void before_destroy(void* context) noexcept {
  ContextState*& current = current_context();
  if (current && current->key.load(std::memory_order_relaxed) == context) {
    current->gpu.abandon();
    current = nullptr;
  }
  release_context(context);
}

}  // namespace pictor::hook
