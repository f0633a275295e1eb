// Draws a marker layout into the current back buffer with scissored clears, through GL entry
// points the interposer resolved itself; saves and restores every piece of GL state it touches.
#pragma once
#include "tag/marker_layout.h"

namespace pictor::tag {

// The GL entry points draw_marker() calls. The parameter types are GL's own on every Linux ABI
// (GLint = int, GLenum = unsigned, GLboolean = unsigned char, ...), so the interposer assigns its
// real function pointers directly. Every member but bind_framebuffer is required.
struct GlClearFns {
  void (*scissor)(int x, int y, int width, int height) = nullptr;
  void (*clear_color)(float r, float g, float b, float a) = nullptr;
  void (*clear)(unsigned int mask) = nullptr;
  void (*enable)(unsigned int cap) = nullptr;
  void (*disable)(unsigned int cap) = nullptr;
  void (*get_integerv)(unsigned int pname, int* data) = nullptr;
  void (*get_floatv)(unsigned int pname, float* data) = nullptr;
  unsigned char (*is_enabled)(unsigned int cap) = nullptr;
  void (*color_mask)(unsigned char r, unsigned char g, unsigned char b, unsigned char a) = nullptr;
  // glBindFramebuffer: set it only on contexts with GL >= 3.0, GLES >= 3.0 or
  // ARB_framebuffer_object. Then a framebuffer object bound at swap time is swapped out for the
  // default framebuffer while the marker is drawn, so the marker reaches the presented frame and
  // the app's framebuffer object is left untouched.
  void (*bind_framebuffer)(unsigned int target, unsigned int framebuffer) = nullptr;
};

// GL enumerants draw_marker() uses, valid in GL 1.1+ and GLES 2.0+ (so querying them never
// raises a GL error the app could later read), except the framebuffer pair (GL/GLES 3.0).
namespace gl {
inline constexpr unsigned int kColorBufferBit = 0x4000;
inline constexpr unsigned int kScissorTest = 0x0C11;
inline constexpr unsigned int kScissorBox = 0x0C10;
inline constexpr unsigned int kColorClearValue = 0x0C22;
inline constexpr unsigned int kColorWritemask = 0x0C23;
inline constexpr unsigned int kDither = 0x0BD0;
inline constexpr unsigned int kDrawFramebuffer = 0x8CA9;
inline constexpr unsigned int kDrawFramebufferBinding = 0x8CA6;
}  // namespace gl

// True when every required entry point is set.
bool usable(const GlClearFns& fns);

// Clears the layout's rectangles into the bound draw framebuffer (the default one when
// bind_framebuffer is set) with pure black and pure white, then restores scissor box, scissor
// test, clear colour, colour mask, dither and framebuffer binding. Call with the app's context
// current, just before the real swap. Returns false and issues no GL call when `fns` is not
// usable or the layout is empty. Never allocates, never throws.
bool draw_marker(const GlClearFns& fns, const MarkerLayout& marker) noexcept;

}  // namespace pictor::tag
