#include "hook/overlay.h"

#include <atomic>
#include <new>

#include "hook/config.h"
#include "hook/context_registry.h"
#include "hook/input_tracker.h"
#include "tag/overlay_blit.h"
#include "tag/overlay_panel.h"

namespace pictor::hook {

struct OverlayState {
  tag::OverlayBlitter blit;
  tag::FrameHistory history;
  tag::PanelImage image;
  std::int64_t input_seen_ns = 0;     // the last input read a frame has answered (or is answering)
  std::int64_t answering_ns = 0;      // the input the current frame is the first after, 0: none
  double in_present_ms = -1;          // the last measured in->present, -1: none yet
  std::int64_t refreshed_ns = 0;      // when the panel was last rasterised and uploaded
  void (*get_integerv)(unsigned int, int*) = nullptr;
};

namespace {
std::atomic<bool> g_shown{true};
constexpr unsigned int kViewport = 0x0BA2;
constexpr std::int64_t kRefreshNs = 1'000'000'000 / 60 - 500'000;  // 60 Hz, with 0.5 ms of slack for jitter
}  // namespace

void overlay_toggle() noexcept { g_shown.store(!g_shown.load(std::memory_order_relaxed), std::memory_order_relaxed); }
bool overlay_shown() noexcept { return g_shown.load(std::memory_order_relaxed); }

void overlay_reset(ContextState& ctx) noexcept {
  if (!ctx.overlay) return;
  ctx.overlay->blit.forget();
  ctx.overlay->history.clear();
  ctx.overlay->input_seen_ns = ctx.overlay->answering_ns = 0;
  ctx.overlay->in_present_ms = -1;
  ctx.overlay->refreshed_ns = 0;
  ctx.overlay->image.width = ctx.overlay->image.height = 0;
}

void overlay_setup(ContextState& ctx, const tag::GlBlitFns& fns, int gl_major) noexcept {
  // Once per slot, kept for the process's life: ~90 KB, mostly the panel image.
  if (!ctx.overlay) ctx.overlay = new (std::nothrow) OverlayState;
  OverlayState* o = ctx.overlay;
  if (!o) return;
  o->get_integerv = fns.get_integerv;
  const bool ok = o->blit.setup(fns, gl_major);
  static std::atomic<bool> logged_off{false}, logged_on{false};
  if (!ok && !logged_off.exchange(true))
    log_line("overlay off for this context: it cannot blit (needs GL or GLES >= 3.0 and a single-sampled "
             "default framebuffer)");
  if (ok && !logged_on.exchange(true)) log_line("overlay on (PICTOR_OVERLAY_KEY toggles it)");
}

void overlay_before_swap(ContextState& ctx, std::int64_t t_call) noexcept {
  OverlayState* o = ctx.overlay;
  if (!o) return;
  o->history.push(t_call);
  const std::int64_t input = last_input_ns();
  if (input > o->input_seen_ns && input <= t_call) {
    o->input_seen_ns = input;
    o->answering_ns = input;
  }
  if (!o->blit.ready() || !overlay_shown()) return;
  // The window's size as the app's viewport gives it (the marker's non-default corners do the
  // same): apps normally leave it at the window's size when they swap.
  int viewport[4] = {0, 0, 0, 0};
  o->get_integerv(kViewport, viewport);
  const tag::PanelPlace place = tag::panel_place(static_cast<tag::Corner>(config().marker_corner),
                                                 viewport[0] + viewport[2], viewport[1] + viewport[3]);
  int w = 0, h = 0;
  if (!tag::panel_size(place.avail_w, place.avail_h, w, h)) return;
  // The image is refreshed at most every kRefreshNs (and whenever its size changes); between
  // refreshes the texture already holds it and only the blit runs. At 60 FPS and below every
  // frame refreshes; an app at 1 000 FPS pays the rasterising and upload 60 times a second.
  if (t_call - o->refreshed_ns >= kRefreshNs || w != o->image.width || h != o->image.height) {
    tag::PanelFigures figures;
    figures.fps = o->history.fps_last_second();
    figures.in_present_ms = o->in_present_ms;
    tag::rasterise_panel(o->history, figures, w, h, o->image);
    if (!o->blit.upload(o->image)) return;
    o->refreshed_ns = t_call;
  }
  o->blit.blit(place.x, place.y);
}

void overlay_after_swap(ContextState& ctx, std::int64_t t_return) noexcept {
  OverlayState* o = ctx.overlay;
  if (!o || o->answering_ns == 0) return;
  o->in_present_ms = static_cast<double>(t_return - o->answering_ns) * 1e-6;
  o->answering_ns = 0;
}

}  // namespace pictor::hook
