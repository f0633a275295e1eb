// The in-app overlay (PICTOR_OVERLAY=1, docs/overlay.md): per GL context, the frame history and
// the panel drawn into the back buffer just before the swap, before the tag marker. The toggle
// key (PICTOR_OVERLAY_KEY) is seen by the X11/XCB event hooks through note_input().
#pragma once
#include <cstdint>

#include "hook/real.h"
#include "tag/marker_blit.h"

namespace pictor::hook {

struct ContextState;

// At the context's first swap: allocates its overlay state and sets up the blit; where the
// context cannot blit, the overlay stays off for it, saying so once in the log.
void overlay_setup(ContextState& ctx, const tag::GlBlitFns& fns, int gl_major) noexcept;
// Before the swap (after the frame's timestamp, before the marker): notes the frame, draws the
// panel when shown.
void overlay_before_swap(ContextState& ctx, std::int64_t t_call) noexcept;
// After the swap: the in->present latency of a frame that followed an input read.
void overlay_after_swap(ContextState& ctx, std::int64_t t_return) noexcept;
// A slot reused for a new context: its GL objects died with the old one.
void overlay_reset(ContextState& ctx) noexcept;

// The toggle key went down (once per event however often it is peeked).
void overlay_toggle() noexcept;
bool overlay_shown() noexcept;

}  // namespace pictor::hook
