#include <cstring>

#include "core/clock.h"
#include "hook/config.h"
#include "hook/hooks.h"
#include "hook/input_tracker.h"
#include "hook/offload.h"
#include "hook/overlay.h"
#include "tag/marker_code.h"
#include "hook/real.h"
#include "hook/writer.h"

namespace pictor::hook {

static void* current_context_handle(Api api) noexcept {
  if (api == Api::glx && offload_on()) return offload_current_context();
  static std::atomic<decltype(&::glXGetCurrentContext)> glx{nullptr};
  static std::atomic<decltype(&::eglGetCurrentContext)> egl{nullptr};
  if (api == Api::glx) {
    auto fn = resolve(glx, "glXGetCurrentContext", "gl");
    return fn ? static_cast<void*>(fn()) : nullptr;
  }
  auto fn = resolve(egl, "eglGetCurrentContext", "egl");
  return fn ? static_cast<void*>(fn()) : nullptr;
}

template <typename Fn>
static void load(Fn& slot, Api api, const char* name) noexcept {
  slot = reinterpret_cast<Fn>(gl_proc(api, name));
}

// The major version of a GL_VERSION string ("4.5 (Core Profile) Mesa ...", "OpenGL ES 3.2 ...").
static int gl_major(const char* version) noexcept {
  if (!version) return 0;
  const char* v = std::strncmp(version, "OpenGL ES ", 10) == 0 ? version + 10 : version;
  return v[0] >= '0' && v[0] <= '9' ? v[0] - '0' : 0;
}

// The entry points of the blits (marker and overlay), through the context's GetProcAddress.
static tag::GlBlitFns load_blit_fns(Api api) noexcept {
  tag::GlBlitFns b;
  load(b.get_integerv, api, "glGetIntegerv");
  load(b.is_enabled, api, "glIsEnabled");
  load(b.enable, api, "glEnable");
  load(b.disable, api, "glDisable");
  load(b.gen_textures, api, "glGenTextures");
  load(b.delete_textures, api, "glDeleteTextures");
  load(b.bind_texture, api, "glBindTexture");
  load(b.tex_image_2d, api, "glTexImage2D");
  load(b.tex_sub_image_2d, api, "glTexSubImage2D");
  load(b.pixel_storei, api, "glPixelStorei");
  load(b.bind_buffer, api, "glBindBuffer");
  load(b.gen_framebuffers, api, "glGenFramebuffers");
  load(b.delete_framebuffers, api, "glDeleteFramebuffers");
  load(b.bind_framebuffer, api, "glBindFramebuffer");
  load(b.framebuffer_texture_2d, api, "glFramebufferTexture2D");
  load(b.check_framebuffer_status, api, "glCheckFramebufferStatus");
  load(b.blit_framebuffer, api, "glBlitFramebuffer");
  return b;
}

static void marker_setup(ContextState& ctx, int major) noexcept {
  tag::GlClearFns& f = ctx.marker_fns;
  load(f.scissor, ctx.api, "glScissor");
  load(f.clear_color, ctx.api, "glClearColor");
  load(f.clear, ctx.api, "glClear");
  load(f.enable, ctx.api, "glEnable");
  load(f.disable, ctx.api, "glDisable");
  load(f.get_integerv, ctx.api, "glGetIntegerv");
  load(f.get_floatv, ctx.api, "glGetFloatv");
  load(f.is_enabled, ctx.api, "glIsEnabled");
  load(f.color_mask, ctx.api, "glColorMask");
  // Framebuffer objects are core from GL 3.0 and GLES 3.0; only then may the marker rebind.
  if (major >= 3) load(f.bind_framebuffer, ctx.api, "glBindFramebuffer");
  if (!tag::usable(f)) {
    f = {};
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true)) log_line("GL entry points for the marker are missing: frames carry no marker");
    return;
  }
  // Refused (multisampled default framebuffer, ...): the clears above draw the marker.
  if (major >= 3 && config().marker_blit) ctx.marker_blit.setup(load_blit_fns(ctx.api), major);
}

static void first_frame_setup(ContextState& ctx) noexcept {
  ctx.gpu_initialised = true;
  const Config& c = config();
  // GL strings of the first context that swaps go to hook.json (run.json's renderer info).
  auto get_string = reinterpret_cast<GetStringFn>(gl_proc(ctx.api, "glGetString"));
  auto str = [&](GLenum e) {
    return get_string ? reinterpret_cast<const char*>(get_string(e)) : nullptr;
  };
  const char* renderer = str(GL_RENDERER);
  const bool software = !c.gpu_timing_forced && software_renderer(renderer);
  if (c.recording && c.gpu_timing && !software) ctx.gpu.init(ctx.api);
  const int major = gl_major(str(GL_VERSION));
  if (c.recording && c.marker) marker_setup(ctx, major);
  if (c.overlay) overlay_setup(ctx, load_blit_fns(ctx.api), major);
  if (c.recording)
    note_gl_info(renderer, str(GL_VERSION), str(GL_VENDOR), ctx.api == Api::egl ? "EGL" : "GLX",
                 !c.gpu_timing ? "off (PICTOR_GPU_TIMING=0)"
                 : software    ? "off: a software renderer, whose timer queries end before it rasterises "
                                 "(PICTOR_GPU_TIMING=1 times it anyway)"
                               : ctx.gpu.reason());
}

// The marker goes into the back buffer just before the swap. The default bottom-left corner is
// at the window origin whatever the window's size, so no size is needed (an app's last viewport
// may be a small HUD or minimap); other corners are placed with the viewport, which apps
// normally leave at the window's size.
static void draw_tag_marker(ContextState& ctx, std::uint64_t tag) noexcept {
  const auto corner = static_cast<tag::Corner>(config().marker_corner);
  int viewport[4] = {0, 0, 1 << 15, 1 << 15};
  if (corner != tag::Corner::bottom_left) ctx.marker_fns.get_integerv(GL_VIEWPORT, viewport);
  const tag::MarkerPayload payload = tag::make_payload(tag, ctx.frame);
  const tag::MarkerLayout marker =
      tag::layout(payload, viewport[0] + viewport[2], viewport[1] + viewport[3], corner);
  int x = 0, y = 0;
  if (ctx.marker_blit.ready() && tag::marker_position(marker, x, y)) {
    ctx.marker_blit.draw(tag::encode_word(payload), x, y);
    return;
  }
  tag::draw_marker(ctx.marker_fns, marker);
}

static auto gpu_result_pusher(const ContextState& ctx) noexcept {
  return [id = ctx.id](std::uint64_t frame, std::int64_t ns) {
    HookRecord g;
    g.kind = HookRecordKind::gpu;
    g.ctx = id;
    g.frame = frame;
    g.value = ns;
    push_record(g);
  };
}

SwapScope before_swap(Api api) noexcept {
  SwapScope s;
  s.t_call = monotonic_ns();
  if (!config().active) return s;
  ContextState*& current = current_context();
  if (!current) current = context_state(current_context_handle(api), api);
  s.ctx = current;
  if (!s.ctx) return s;
  if (!s.ctx->gpu_initialised) first_frame_setup(*s.ctx);
  s.gpu_timed = s.ctx->gpu.end_frame();
  s.tag = current_tag();
  // The panel first: the marker is drawn last, over nothing of ours (the panel never reaches
  // the marker's corner either).
  if (s.ctx->overlay) overlay_before_swap(*s.ctx, s.t_call);
  if (config().marker && s.ctx->marker_fns.clear) draw_tag_marker(*s.ctx, s.tag);
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
  f.value = s.tag == 0 ? -1 : static_cast<std::int64_t>(s.tag);
  f.fc_ns = s.copy.fc_busy_ns;
  f.fc_start_ns = s.copy.fc_start_ns;
  f.fc_end_ns = s.copy.fc_end_ns;
  f.as_start_ns = s.copy.as_start_ns;
  f.as_end_ns = s.copy.as_end_ns;
  if (s.defer) {
    s.defer->record = f;
    s.defer->held = config().recording;
  } else if (config().recording) {
    push_record(f);
  }
  if (ctx.overlay) overlay_after_swap(ctx, t_return);
  // After the frame's own record, so the writer always sees a frame before its GPU result.
  ctx.gpu.collect(gpu_result_pusher(ctx));
  ++ctx.frame;
  ctx.gpu.begin_frame(ctx.frame);
}

void before_unbind() noexcept {
  if (ContextState* c = current_context()) c->gpu.abandon();
}

void after_bind(void* context, Api api) noexcept {
  if (!config().active) return;
  current_context() = context ? context_state(context, api) : nullptr;
}

void before_destroy(void* context) noexcept {
  ContextState*& current = current_context();
  if (current && current->key.load(std::memory_order_relaxed) == context) {
    current->gpu.retire(gpu_result_pusher(*current));
    current = nullptr;
  }
  release_context(context);
}

void before_display_close(void* display) noexcept {
  // Offloaded frames still waiting for their copy reach X while it is there.
  if (offload_on()) offload_display_closing(display);
  ContextState* current = current_context();
  if (!current || current->api != Api::glx) return;
  if (offload_on()) {
    if (offload_current_display() == display) before_destroy(current->key.load(std::memory_order_relaxed));
    return;
  }
  static std::atomic<decltype(&::glXGetCurrentDisplay)> get_display{nullptr};
  auto fn = resolve(get_display, "glXGetCurrentDisplay", "gl");
  // Closing the display of the current context tears that context down with it.
  if (fn && fn() == display) before_destroy(current->key.load(std::memory_order_relaxed));
}

}  // namespace pictor::hook
