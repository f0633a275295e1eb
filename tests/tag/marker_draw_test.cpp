// draw_marker() against a software model of the GL state it touches: the marker lands in the
// default framebuffer's back buffer, the app's state and framebuffer objects come back exactly as
// they were, and the entry-point types match the real GL prototypes.
#include <gtest/gtest.h>

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "marker_image.h"
#include "tag/marker_decode.h"
#include "tag/marker_draw.h"

namespace pictor::tag {
namespace {

// The interposer assigns its resolved GL pointers straight into GlClearFns.
static_assert(std::is_same_v<decltype(&glScissor), decltype(GlClearFns::scissor)>);
static_assert(std::is_same_v<decltype(&glClearColor), decltype(GlClearFns::clear_color)>);
static_assert(std::is_same_v<decltype(&glClear), decltype(GlClearFns::clear)>);
static_assert(std::is_same_v<decltype(&glEnable), decltype(GlClearFns::enable)>);
static_assert(std::is_same_v<decltype(&glDisable), decltype(GlClearFns::disable)>);
static_assert(std::is_same_v<decltype(&glGetIntegerv), decltype(GlClearFns::get_integerv)>);
static_assert(std::is_same_v<decltype(&glGetFloatv), decltype(GlClearFns::get_floatv)>);
static_assert(std::is_same_v<decltype(&glIsEnabled), decltype(GlClearFns::is_enabled)>);
static_assert(std::is_same_v<decltype(&glColorMask), decltype(GlClearFns::color_mask)>);
static_assert(std::is_same_v<PFNGLBINDFRAMEBUFFERPROC, decltype(GlClearFns::bind_framebuffer)>);
static_assert(gl::kColorBufferBit == GL_COLOR_BUFFER_BIT);
static_assert(gl::kScissorTest == GL_SCISSOR_TEST);
static_assert(gl::kScissorBox == GL_SCISSOR_BOX);
static_assert(gl::kColorClearValue == GL_COLOR_CLEAR_VALUE);
static_assert(gl::kColorWritemask == GL_COLOR_WRITEMASK);
static_assert(gl::kDither == GL_DITHER);
static_assert(gl::kDrawFramebuffer == GL_DRAW_FRAMEBUFFER);
static_assert(gl::kDrawFramebufferBinding == GL_DRAW_FRAMEBUFFER_BINDING);

// Software model of the state draw_marker touches, with RGBA8 framebuffers (origin bottom-left).
struct FakeGl {
  int width = 0, height = 0;
  std::map<unsigned, std::vector<std::uint8_t>> framebuffers;  // 0 = default back buffer
  unsigned draw_fb = 0;
  int box[4] = {0, 0, 0, 0};
  bool scissor = false, dither = true;
  float clear_color[4] = {0, 0, 0, 0};
  bool mask[4] = {true, true, true, true};
  std::vector<std::string> calls;
  std::vector<std::string> errors;  // what a real context would flag as GL errors

  FakeGl(int w, int h) : width(w), height(h) {
    framebuffers[0].assign(static_cast<std::size_t>(w * h * 4), 90);
    box[2] = w;
    box[3] = h;
  }
  bool operator==(const FakeGl&) const = default;
};
FakeGl* gl_now = nullptr;

void fake_scissor(int x, int y, int w, int h) {
  gl_now->calls.push_back("scissor");
  gl_now->box[0] = x, gl_now->box[1] = y, gl_now->box[2] = w, gl_now->box[3] = h;
}
void fake_clear_color(float r, float g, float b, float a) {
  gl_now->calls.push_back("clear_color");
  gl_now->clear_color[0] = r, gl_now->clear_color[1] = g, gl_now->clear_color[2] = b;
  gl_now->clear_color[3] = a;
}
void fake_clear(unsigned mask) {
  gl_now->calls.push_back("clear");
  if (mask != GL_COLOR_BUFFER_BIT) gl_now->errors.push_back("clear of more than colour");
  auto& fb = gl_now->framebuffers[gl_now->draw_fb];
  int x0 = 0, y0 = 0, x1 = gl_now->width, y1 = gl_now->height;
  if (gl_now->scissor) {
    x0 = std::max(x0, gl_now->box[0]), y0 = std::max(y0, gl_now->box[1]);
    x1 = std::min(x1, gl_now->box[0] + gl_now->box[2]);
    y1 = std::min(y1, gl_now->box[1] + gl_now->box[3]);
  }
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x)
      for (int c = 0; c < 4; ++c)
        if (gl_now->mask[c])
          fb[static_cast<std::size_t>((y * gl_now->width + x) * 4 + c)] =
              static_cast<std::uint8_t>(gl_now->clear_color[c] * 255.f + 0.5f);
}
bool* cap_flag(unsigned cap) {
  if (cap == GL_SCISSOR_TEST) return &gl_now->scissor;
  if (cap == GL_DITHER) return &gl_now->dither;
  gl_now->errors.push_back("unknown capability " + std::to_string(cap));
  return nullptr;
}
void fake_enable(unsigned cap) {
  gl_now->calls.push_back("enable");
  if (bool* f = cap_flag(cap)) *f = true;
}
void fake_disable(unsigned cap) {
  gl_now->calls.push_back("disable");
  if (bool* f = cap_flag(cap)) *f = false;
}
unsigned char fake_is_enabled(unsigned cap) {
  gl_now->calls.push_back("is_enabled");
  const bool* f = cap_flag(cap);
  return f && *f ? 1 : 0;
}
void fake_get_integerv(unsigned pname, int* v) {
  gl_now->calls.push_back("get_integerv");
  if (pname == GL_SCISSOR_BOX) {
    for (int i = 0; i < 4; ++i) v[i] = gl_now->box[i];
  } else if (pname == GL_COLOR_WRITEMASK) {
    for (int i = 0; i < 4; ++i) v[i] = gl_now->mask[i] ? 1 : 0;
  } else if (pname == GL_DRAW_FRAMEBUFFER_BINDING) {
    v[0] = static_cast<int>(gl_now->draw_fb);
  } else {
    gl_now->errors.push_back("unknown integer " + std::to_string(pname));
  }
}
void fake_get_floatv(unsigned pname, float* v) {
  gl_now->calls.push_back("get_floatv");
  if (pname != GL_COLOR_CLEAR_VALUE) gl_now->errors.push_back("unknown float");
  for (int i = 0; i < 4; ++i) v[i] = gl_now->clear_color[i];
}
void fake_color_mask(unsigned char r, unsigned char g, unsigned char b, unsigned char a) {
  gl_now->calls.push_back("color_mask");
  gl_now->mask[0] = r, gl_now->mask[1] = g, gl_now->mask[2] = b, gl_now->mask[3] = a;
}
void fake_bind_framebuffer(unsigned target, unsigned fb) {
  gl_now->calls.push_back("bind_framebuffer");
  if (target != GL_DRAW_FRAMEBUFFER) gl_now->errors.push_back("bind to wrong target");
  if (!gl_now->framebuffers.count(fb)) gl_now->errors.push_back("no such framebuffer");
  gl_now->draw_fb = fb;
}

GlClearFns fake_fns(bool with_framebuffers) {
  GlClearFns f;
  f.scissor = fake_scissor;
  f.clear_color = fake_clear_color;
  f.clear = fake_clear;
  f.enable = fake_enable;
  f.disable = fake_disable;
  f.get_integerv = fake_get_integerv;
  f.get_floatv = fake_get_floatv;
  f.is_enabled = fake_is_enabled;
  f.color_mask = fake_color_mask;
  if (with_framebuffers) f.bind_framebuffer = fake_bind_framebuffer;
  return f;
}

// The default framebuffer as a captured image would show it: rows flipped to top-left origin.
testing::Canvas capture(const FakeGl& g) {
  testing::Canvas c(g.width, g.height, PixelFormat::rgbx);
  const auto& fb = g.framebuffers.at(0);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      const std::size_t i = static_cast<std::size_t>(((g.height - 1 - y) * g.width + x) * 4);
      c.set_rgb(x, y, fb[i], fb[i + 1], fb[i + 2]);
    }
  return c;
}

// Strips what draw_marker may change on purpose (pixels of the default framebuffer, the call
// log) so the rest of the state can be compared with what the app had.
FakeGl app_state(FakeGl g) {
  g.framebuffers.erase(0);
  g.calls.clear();
  return g;
}

TEST(MarkerDraw, DrawsIntoTheDefaultFramebufferAndRestoresAppState) {
  FakeGl g(200, 120);
  g.framebuffers[7].assign(200 * 120 * 4, 33);  // the app's own framebuffer object, bound
  g.draw_fb = 7;
  g.scissor = true;
  g.box[0] = 5, g.box[1] = 6, g.box[2] = 7, g.box[3] = 8;
  g.clear_color[0] = 0.1f, g.clear_color[1] = 0.2f, g.clear_color[2] = 0.3f, g.clear_color[3] = 0.4f;
  g.mask[1] = false, g.mask[3] = false;
  g.dither = true;
  gl_now = &g;
  const FakeGl before = g;

  const MarkerPayload p{0xA5C, 0x3E};
  const MarkerLayout m = layout(p, 200, 120, Corner::bottom_left);
  ASSERT_TRUE(draw_marker(fake_fns(true), m));

  EXPECT_TRUE(g.errors.empty()) << g.errors.front();
  EXPECT_EQ(app_state(g), app_state(before));
  const testing::Canvas shot = capture(g);
  const auto got = decode(shot.bytes.data(), shot.width, shot.height, shot.stride(),
                          PixelFormat::rgbx, Corner::bottom_left);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, p);
  // Nothing outside the marker changed.
  for (int y = 0; y < 120; ++y) {
    for (int x = 0; x < 200; ++x) {
      if (x < kMarkerWidth && y < kMarkerHeight) continue;
      ASSERT_EQ(g.framebuffers[0][static_cast<std::size_t>((y * 200 + x) * 4)], 90) << x << "," << y;
    }
  }
  long clears = std::count(g.calls.begin(), g.calls.end(), "clear");
  EXPECT_EQ(clears, m.count);
}

TEST(MarkerDraw, RestoresDisabledScissorAndDither) {
  FakeGl g(64, 32);
  g.scissor = false;
  g.dither = false;
  gl_now = &g;
  const FakeGl before = g;
  ASSERT_TRUE(draw_marker(fake_fns(true), layout(MarkerPayload{1, 2}, 64, 32, Corner::top_right)));
  EXPECT_TRUE(g.errors.empty());
  EXPECT_EQ(app_state(g), app_state(before));
  const testing::Canvas shot = capture(g);
  const auto got = decode(shot.bytes.data(), 64, 32, shot.stride(), PixelFormat::rgbx, Corner::top_right);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, (MarkerPayload{1, 2}));
}

TEST(MarkerDraw, WithoutFramebufferEntryPointNeverQueriesTheBinding) {
  // On a GL 2.1 or GLES 2 context GL_DRAW_FRAMEBUFFER_BINDING is an invalid enum: querying it
  // would leave a GL error the app could read.
  FakeGl g(100, 50);
  gl_now = &g;
  ASSERT_TRUE(draw_marker(fake_fns(false), layout(MarkerPayload{3, 4}, 100, 50, Corner::bottom_left)));
  EXPECT_TRUE(g.errors.empty());
  EXPECT_EQ(std::count(g.calls.begin(), g.calls.end(), "bind_framebuffer"), 0);
  EXPECT_EQ(std::count(g.calls.begin(), g.calls.end(), "get_integerv"), 2);  // box and mask only
}

TEST(MarkerDraw, NothingHappensWithoutALayoutOrEntryPoints) {
  FakeGl g(32, 16);  // smaller than the marker
  gl_now = &g;
  EXPECT_FALSE(draw_marker(fake_fns(true), layout(MarkerPayload{3, 4}, 32, 16)));
  GlClearFns missing = fake_fns(true);
  missing.color_mask = nullptr;
  EXPECT_FALSE(usable(missing));
  EXPECT_FALSE(draw_marker(missing, layout(MarkerPayload{3, 4}, 100, 50)));
  EXPECT_TRUE(g.calls.empty());
}

TEST(MarkerDraw, SetsEachClearColourOnlyWhenItChanges) {
  FakeGl g(100, 50);
  gl_now = &g;
  const MarkerLayout m = layout(MarkerPayload{0x777, 0x77}, 100, 50);
  ASSERT_TRUE(draw_marker(fake_fns(true), m));
  // Background colour, then the other colour, then the app's colour back.
  EXPECT_EQ(std::count(g.calls.begin(), g.calls.end(), "clear_color"), m.count > 1 ? 3 : 2);
}

}  // namespace
}  // namespace pictor::tag
