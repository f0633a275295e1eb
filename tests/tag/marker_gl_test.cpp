// draw_marker() on a real OpenGL implementation (Mesa llvmpipe through surfaceless EGL): the
// marker reads back from the default framebuffer, an app framebuffer object bound at swap time
// is left untouched, every piece of state comes back, and no GL error is raised. The overlay
// panel's blit (overlay_blit.h) likewise, beside the marker.
#include <gtest/gtest.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <memory>
#include <string>
#include <vector>

#include "tag/marker_blit.h"
#include "tag/marker_decode.h"
#include "tag/marker_draw.h"
#include "tag/overlay_blit.h"

namespace pictor::tag {
namespace {

constexpr int kW = 200, kH = 100;

// One surfaceless EGL display with a pbuffer as default framebuffer, current for the test.
class RealGl : public ::testing::Test {
 protected:
  void SetUp() override {
    auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!get_platform_display) GTEST_SKIP() << "EGL has no eglGetPlatformDisplayEXT";
    display_ = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display_ == EGL_NO_DISPLAY || !eglInitialize(display_, nullptr, nullptr)) {
      GTEST_SKIP() << "no surfaceless EGL display (Mesa not installed?)";
    }
    eglBindAPI(EGL_OPENGL_API);
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8,
                                     EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                                     EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    if (!eglChooseConfig(display_, config_attribs, &config, 1, &n) || n == 0) {
      GTEST_SKIP() << "no RGB8 pbuffer config";
    }
    const EGLint surface_attribs[] = {EGL_WIDTH, kW, EGL_HEIGHT, kH, EGL_NONE};
    surface_ = eglCreatePbufferSurface(display_, config, surface_attribs);
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, nullptr);
    if (surface_ == EGL_NO_SURFACE || context_ == EGL_NO_CONTEXT ||
        !eglMakeCurrent(display_, surface_, surface_, context_)) {
      GTEST_SKIP() << "cannot make a GL context current";
    }
    gen_framebuffers_ = load<PFNGLGENFRAMEBUFFERSPROC>("glGenFramebuffers");
    gen_renderbuffers_ = load<PFNGLGENRENDERBUFFERSPROC>("glGenRenderbuffers");
    bind_renderbuffer_ = load<PFNGLBINDRENDERBUFFERPROC>("glBindRenderbuffer");
    renderbuffer_storage_ = load<PFNGLRENDERBUFFERSTORAGEPROC>("glRenderbufferStorage");
    framebuffer_renderbuffer_ = load<PFNGLFRAMEBUFFERRENDERBUFFERPROC>("glFramebufferRenderbuffer");
    bind_framebuffer_ = load<PFNGLBINDFRAMEBUFFERPROC>("glBindFramebuffer");
    if (!gen_framebuffers_ || !gen_renderbuffers_ || !bind_renderbuffer_ ||
        !renderbuffer_storage_ || !framebuffer_renderbuffer_ || !bind_framebuffer_) {
      GTEST_SKIP() << "no framebuffer objects";
    }
  }
  void TearDown() override {
    if (display_ != EGL_NO_DISPLAY) {
      eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
      if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
      eglTerminate(display_);
    }
  }
  template <typename T>
  static T load(const char* name) {
    return reinterpret_cast<T>(eglGetProcAddress(name));
  }

  GlClearFns real_fns(bool with_framebuffers) const {
    GlClearFns f;
    f.scissor = glScissor;
    f.clear_color = glClearColor;
    f.clear = glClear;
    f.enable = glEnable;
    f.disable = glDisable;
    f.get_integerv = glGetIntegerv;
    f.get_floatv = glGetFloatv;
    f.is_enabled = glIsEnabled;
    f.color_mask = glColorMask;
    if (with_framebuffers) f.bind_framebuffer = bind_framebuffer_;
    return f;
  }

  // Reads a framebuffer as a top-left-origin RGBX image.
  std::vector<std::uint8_t> read(unsigned framebuffer) const {
    bind_framebuffer_(GL_READ_FRAMEBUFFER, framebuffer);
    std::vector<std::uint8_t> rows(kW * kH * 4), image(kW * kH * 4);
    glReadPixels(0, 0, kW, kH, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
    for (int y = 0; y < kH; ++y)
      std::copy_n(rows.data() + (kH - 1 - y) * kW * 4, kW * 4, image.data() + y * kW * 4);
    return image;
  }

  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLContext context_ = EGL_NO_CONTEXT;
  PFNGLGENFRAMEBUFFERSPROC gen_framebuffers_ = nullptr;
  PFNGLGENRENDERBUFFERSPROC gen_renderbuffers_ = nullptr;
  PFNGLBINDRENDERBUFFERPROC bind_renderbuffer_ = nullptr;
  PFNGLRENDERBUFFERSTORAGEPROC renderbuffer_storage_ = nullptr;
  PFNGLFRAMEBUFFERRENDERBUFFERPROC framebuffer_renderbuffer_ = nullptr;
  PFNGLBINDFRAMEBUFFERPROC bind_framebuffer_ = nullptr;
};

struct GlState {
  int box[4];
  float clear[4];
  int mask[4];
  int draw_fb, read_fb;
  unsigned char scissor, dither;
  bool operator==(const GlState& o) const {
    return std::equal(box, box + 4, o.box) && std::equal(clear, clear + 4, o.clear) &&
           std::equal(mask, mask + 4, o.mask) && draw_fb == o.draw_fb && read_fb == o.read_fb &&
           scissor == o.scissor && dither == o.dither;
  }
};

GlState query_state() {
  GlState s{};
  glGetIntegerv(GL_SCISSOR_BOX, s.box);
  glGetFloatv(GL_COLOR_CLEAR_VALUE, s.clear);
  glGetIntegerv(GL_COLOR_WRITEMASK, s.mask);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s.draw_fb);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s.read_fb);
  s.scissor = glIsEnabled(GL_SCISSOR_TEST);
  s.dither = glIsEnabled(GL_DITHER);
  return s;
}

TEST_F(RealGl, MarkerReachesTheDefaultFramebufferAndStateComesBack) {
  // The app's frame: grey in the default framebuffer; an FBO of its own, green, still bound.
  glClearColor(0.5f, 0.5f, 0.5f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  unsigned fbo = 0, rbo = 0;
  gen_framebuffers_(1, &fbo);
  gen_renderbuffers_(1, &rbo);
  bind_renderbuffer_(GL_RENDERBUFFER, rbo);
  renderbuffer_storage_(GL_RENDERBUFFER, GL_RGBA8, kW, kH);
  bind_framebuffer_(GL_FRAMEBUFFER, fbo);
  framebuffer_renderbuffer_(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbo);
  glClearColor(0.f, 1.f, 0.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(10, 20, 30, 40);
  glClearColor(0.25f, 0.5f, 0.75f, 1.f);
  glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
  glEnable(GL_DITHER);
  ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  const GlState before = query_state();

  const MarkerPayload p{0x9D1, 0xC4};
  ASSERT_TRUE(draw_marker(real_fns(true), layout(p, kW, kH, Corner::bottom_left)));

  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_TRUE(query_state() == before);
  const std::vector<std::uint8_t> shown = read(0);
  const auto got = decode(shown.data(), kW, kH, kW * 4, PixelFormat::rgbx, Corner::bottom_left);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, p);
  EXPECT_EQ(shown[(10 * kW + 100) * 4], 128) << "pixels outside the marker keep the app's grey";
  const std::vector<std::uint8_t> app_fbo = read(fbo);
  for (std::size_t i = 0; i < app_fbo.size(); i += 4) {
    ASSERT_EQ(app_fbo[i + 1], 255) << "the app's framebuffer object was drawn into at " << i / 4;
  }
}

TEST_F(RealGl, WorksWithoutFramebufferEntryPoint) {
  glClearColor(0.5f, 0.5f, 0.5f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DITHER);
  const GlState before = query_state();
  const MarkerPayload p{0x123, 0x45};
  ASSERT_TRUE(draw_marker(real_fns(false), layout(p, kW, kH, Corner::top_right)));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_TRUE(query_state() == before);
  const std::vector<std::uint8_t> shown = read(0);
  const auto got = decode(shown.data(), kW, kH, kW * 4, PixelFormat::rgbx, Corner::top_right);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, p);
}

// The blit path (marker_blit.h): one glBlitFramebuffer from the interposer's own 8 x 4 texture.
class RealGlBlit : public RealGl {
 protected:
  GlBlitFns blit_fns() const {
    GlBlitFns f;
    f.get_integerv = glGetIntegerv;
    f.is_enabled = glIsEnabled;
    f.enable = glEnable;
    f.disable = glDisable;
    f.gen_textures = glGenTextures;
    f.delete_textures = glDeleteTextures;
    f.bind_texture = glBindTexture;
    f.tex_image_2d = glTexImage2D;
    f.tex_sub_image_2d = glTexSubImage2D;
    f.pixel_storei = glPixelStorei;
    f.bind_buffer = load<PFNGLBINDBUFFERPROC>("glBindBuffer");
    f.gen_framebuffers = gen_framebuffers_;
    f.delete_framebuffers = load<PFNGLDELETEFRAMEBUFFERSPROC>("glDeleteFramebuffers");
    f.bind_framebuffer = bind_framebuffer_;
    f.framebuffer_texture_2d = load<PFNGLFRAMEBUFFERTEXTURE2DPROC>("glFramebufferTexture2D");
    f.check_framebuffer_status = load<PFNGLCHECKFRAMEBUFFERSTATUSPROC>("glCheckFramebufferStatus");
    f.blit_framebuffer = load<PFNGLBLITFRAMEBUFFERPROC>("glBlitFramebuffer");
    return f;
  }
  // The app's state at swap time: its own FBO (green, returned in `fbo`) bound for drawing and
  // reading, a scissor, a colour mask, a texture bound, a pixel-unpack buffer bound and unusual
  // unpack parameters.
  void set_app_state(unsigned& fbo) {
    unsigned rbo = 0, texture = 0, pbo = 0;
    gen_framebuffers_(1, &fbo);
    gen_renderbuffers_(1, &rbo);
    bind_renderbuffer_(GL_RENDERBUFFER, rbo);
    renderbuffer_storage_(GL_RENDERBUFFER, GL_RGBA8, kW, kH);
    bind_framebuffer_(GL_FRAMEBUFFER, fbo);
    framebuffer_renderbuffer_(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbo);
    glClearColor(0.f, 1.f, 0.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(10, 20, 30, 40);
    glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    auto gen_buffers = load<PFNGLGENBUFFERSPROC>("glGenBuffers");
    auto bind_buffer = load<PFNGLBINDBUFFERPROC>("glBindBuffer");
    auto buffer_data = load<PFNGLBUFFERDATAPROC>("glBufferData");
    ASSERT_TRUE(gen_buffers && bind_buffer && buffer_data);
    gen_buffers(1, &pbo);
    bind_buffer(GL_PIXEL_UNPACK_BUFFER, pbo);
    buffer_data(GL_PIXEL_UNPACK_BUFFER, 16, nullptr, GL_STREAM_DRAW);  // too small for the marker
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 100);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 3);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 5);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
    ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  }
  // Not one pixel of the app's own framebuffer object changed (it stays green).
  void expect_app_fbo_untouched(unsigned fbo) {
    const std::vector<std::uint8_t> app_fbo = read(fbo);
    for (std::size_t i = 0; i < app_fbo.size(); i += 4) {
      ASSERT_EQ(app_fbo[i + 1], 255) << "the app's framebuffer object was drawn into at " << i / 4;
    }
  }
  void grey_frame() {
    bind_framebuffer_(GL_FRAMEBUFFER, 0);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0.5f, 0.5f, 0.5f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
  }
};

// The blit path's state beyond GlState: texture, unpack buffer and unpack parameters.
struct UploadState {
  int texture, unpack_buffer, row_length, skip_rows, skip_pixels, alignment;
  bool operator==(const UploadState&) const = default;
};

UploadState query_upload_state() {
  UploadState s{};
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &s.texture);
  glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &s.unpack_buffer);
  glGetIntegerv(GL_UNPACK_ROW_LENGTH, &s.row_length);
  glGetIntegerv(GL_UNPACK_SKIP_ROWS, &s.skip_rows);
  glGetIntegerv(GL_UNPACK_SKIP_PIXELS, &s.skip_pixels);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &s.alignment);
  return s;
}

TEST_F(RealGlBlit, BlitsTheSamePixelsAsTheClearsInEveryCorner) {
  MarkerBlitter blitter;
  const GlBlitFns fns = blit_fns();
  ASSERT_TRUE(usable(fns));
  ASSERT_TRUE(blitter.setup(fns, 3));
  ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  const MarkerPayload payloads[] = {{0x9D1, 0xC4}, {0, 0}, {0xFFF, 0xFF}, {0x123, 0x45}};
  int n = 0;
  for (Corner c : {Corner::bottom_left, Corner::bottom_right, Corner::top_left, Corner::top_right}) {
    for (const MarkerPayload& p : payloads) {
      SCOPED_TRACE(testing::Message() << corner_name(c) << " payload " << n++);
      grey_frame();
      ASSERT_TRUE(draw_marker(real_fns(true), layout(p, kW, kH, c)));
      const std::vector<std::uint8_t> cleared = read(0);
      grey_frame();
      int x = -1, y = -1;
      ASSERT_TRUE(marker_position(layout(p, kW, kH, c), x, y));
      ASSERT_TRUE(blitter.draw(encode_word(p), x, y));
      EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
      const std::vector<std::uint8_t> blitted = read(0);
      const auto got = decode(blitted.data(), kW, kH, kW * 4, PixelFormat::rgbx, c);
      ASSERT_TRUE(got);
      EXPECT_EQ(*got, p);
      EXPECT_TRUE(blitted == cleared) << "the blit's pixels differ from the clears' pixels";
    }
  }
}

TEST_F(RealGlBlit, LeavesTheAppsFramebufferTextureAndUnpackStateAlone) {
  MarkerBlitter blitter;
  ASSERT_TRUE(blitter.setup(blit_fns(), 3));
  grey_frame();
  unsigned fbo = 0;
  ASSERT_NO_FATAL_FAILURE(set_app_state(fbo));
  const GlState before = query_state();
  const UploadState upload_before = query_upload_state();

  const MarkerPayload p{0x9D1, 0xC4};
  int x = -1, y = -1;
  ASSERT_TRUE(marker_position(layout(p, kW, kH, Corner::bottom_left), x, y));
  ASSERT_TRUE(blitter.draw(encode_word(p), x, y));

  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_TRUE(query_state() == before);
  EXPECT_TRUE(query_upload_state() == upload_before);
  const std::vector<std::uint8_t> shown = read(0);
  const auto got = decode(shown.data(), kW, kH, kW * 4, PixelFormat::rgbx, Corner::bottom_left);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, p);
  expect_app_fbo_untouched(fbo);
}

TEST_F(RealGlBlit, RefusesBelowGl3AndDrawsNothingWhenNotSetUp) {
  MarkerBlitter blitter;
  EXPECT_FALSE(blitter.setup(blit_fns(), 2));
  EXPECT_FALSE(blitter.ready());
  GlBlitFns missing = blit_fns();
  missing.blit_framebuffer = nullptr;
  EXPECT_FALSE(usable(missing));
  EXPECT_FALSE(blitter.setup(missing, 3));
  EXPECT_FALSE(blitter.draw(0x12345678u, 0, 0));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

// The overlay panel (overlay_blit.h): blitted beside the marker, both through the app's state.
TEST_F(RealGlBlit, OverlayPanelLandsAboveTheMarkerAndStateComesBack) {
  MarkerBlitter marker;
  OverlayBlitter overlay;
  ASSERT_TRUE(marker.setup(blit_fns(), 3));
  ASSERT_TRUE(overlay.setup(blit_fns(), 3));
  grey_frame();
  unsigned fbo = 0;
  ASSERT_NO_FATAL_FAILURE(set_app_state(fbo));
  const GlState before = query_state();
  const UploadState upload_before = query_upload_state();

  // The hook's swap path: the panel where panel_place() puts it, then the marker.
  FrameHistory history;
  for (int i = 0; i < 200; ++i) history.push(1'000'000'000LL + i * 16'666'667LL);
  const PanelPlace place = panel_place(Corner::bottom_left, kW, kH);
  int w = 0, h = 0;
  ASSERT_TRUE(panel_size(place.avail_w, place.avail_h, w, h));
  ASSERT_EQ(w, kW);
  ASSERT_EQ(h, kH - kMarkerHeight - kCellPx);
  auto image = std::make_unique<PanelImage>();
  rasterise_panel(history, {history.fps_last_second(), 12.5}, w, h, *image);
  ASSERT_TRUE(overlay.draw(*image, place.x, place.y));
  const MarkerPayload p{0x9D1, 0xC4};
  int x = -1, y = -1;
  ASSERT_TRUE(marker_position(layout(p, kW, kH, Corner::bottom_left), x, y));
  ASSERT_TRUE(marker.draw(encode_word(p), x, y));

  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_TRUE(query_state() == before);
  EXPECT_TRUE(query_upload_state() == upload_before);
  const std::vector<std::uint8_t> shown = read(0);
  // Every panel pixel where the panel goes (image rows 0 .. h-1, top-left origin), exactly.
  int mismatches = 0;
  for (int py = 0; py < h; ++py)
    for (int px = 0; px < w; ++px)
      for (int c = 0; c < 3; ++c)
        if (shown[(py * kW + px) * 4 + c] != image->at(px, py)[c]) ++mismatches;
  EXPECT_EQ(mismatches, 0);
  // Below it: the marker decodes and the gap between the two keeps the app's grey.
  const auto got = decode(shown.data(), kW, kH, kW * 4, PixelFormat::rgbx, Corner::bottom_left);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, p);
  for (int py = h; py < kH - kMarkerHeight; ++py)
    for (int px = 0; px < kW; ++px) ASSERT_EQ(shown[(py * kW + px) * 4], 128) << px << "," << py;
  for (int py = kH - kMarkerHeight; py < kH; ++py)
    for (int px = kMarkerWidth; px < kW; ++px) ASSERT_EQ(shown[(py * kW + px) * 4], 128) << px << "," << py;
  expect_app_fbo_untouched(fbo);
  // The next frame between two refreshes: the blit alone draws the same panel again.
  grey_frame();
  ASSERT_TRUE(overlay.blit(place.x, place.y));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  const std::vector<std::uint8_t> again = read(0);
  for (int py = 0; py < h; ++py)
    for (int px = 0; px < w; ++px) ASSERT_EQ(again[(py * kW + px) * 4 + 1], image->at(px, py)[1]) << px << "," << py;
}

TEST_F(RealGlBlit, OverlayRefusesBelowGl3AndDrawsNothingWhenNotSetUpOrTooLarge) {
  OverlayBlitter overlay;
  EXPECT_FALSE(overlay.setup(blit_fns(), 2));
  EXPECT_FALSE(overlay.ready());
  auto image = std::make_unique<PanelImage>();
  rasterise_panel(FrameHistory{}, {}, 100, 20, *image);
  EXPECT_FALSE(overlay.draw(*image, 0, 0));
  ASSERT_TRUE(overlay.setup(blit_fns(), 3));
  EXPECT_FALSE(overlay.blit(0, 0)) << "nothing uploaded yet";
  image->width = kPanelWidth + 2;
  EXPECT_FALSE(overlay.draw(*image, 0, 0)) << "larger than the texture";
  image->width = 99;
  EXPECT_FALSE(overlay.draw(*image, 0, 0)) << "an odd width would depend on GL_UNPACK_ALIGNMENT";
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(MarkerTexels, CellsGoToTheirTexelsBottomRowFirst) {
  std::uint8_t t[kCells * 4];
  // Only cell 0 (column 0, top row) white: texel (0, GL row 3).
  marker_texels(0x80000000u, t);
  for (int i = 0; i < kCells; ++i) {
    const bool white = i == 3 * kColumns + 0;
    EXPECT_EQ(t[i * 4], white ? 255 : 0) << "texel " << i;
    EXPECT_EQ(t[i * 4 + 3], 255);
  }
  // Cell 7 (column 1, bottom row): texel (1, GL row 0).
  marker_texels(1u << (31 - 7), t);
  EXPECT_EQ(t[1 * 4], 255);
  EXPECT_EQ(t[0], 0);
}

}  // namespace
}  // namespace pictor::tag
