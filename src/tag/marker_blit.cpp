#include "tag/marker_blit.h"

namespace pictor::tag {
namespace {

// GL enumerants of the blit path, valid in GL 3.0+ and GLES 3.0+ (querying them on such a
// context never raises an error).
constexpr unsigned int kTexture2d = 0x0DE1;
constexpr unsigned int kTextureBinding2d = 0x8069;
constexpr unsigned int kRgba = 0x1908;
constexpr unsigned int kRgba8 = 0x8058;
constexpr unsigned int kUnsignedByte = 0x1401;
constexpr unsigned int kUnpackRowLength = 0x0CF2;
constexpr unsigned int kUnpackSkipRows = 0x0CF3;
constexpr unsigned int kUnpackSkipPixels = 0x0CF4;
constexpr unsigned int kPixelUnpackBuffer = 0x88EC;
constexpr unsigned int kPixelUnpackBufferBinding = 0x88EF;
constexpr unsigned int kReadFramebuffer = 0x8CA8;
constexpr unsigned int kDrawFramebuffer = 0x8CA9;
constexpr unsigned int kReadFramebufferBinding = 0x8CAA;
constexpr unsigned int kDrawFramebufferBinding = 0x8CA6;
constexpr unsigned int kColorAttachment0 = 0x8CE0;
constexpr unsigned int kFramebufferComplete = 0x8CD5;
constexpr unsigned int kSampleBuffers = 0x80A8;
constexpr unsigned int kScissorTest = 0x0C11;
constexpr unsigned int kColorBufferBit = 0x4000;
constexpr unsigned int kNearest = 0x2600;

// What the blit path changes, as the app left it.
struct Saved {
  int draw_fb = 0, read_fb = 0, texture = 0, unpack_buffer = 0;
  int unpack[3] = {0, 0, 0};  // row length, skip rows, skip pixels
  bool scissor = false;
};

constexpr unsigned int kUnpackParams[3] = {kUnpackRowLength, kUnpackSkipRows, kUnpackSkipPixels};

// Saves the upload state and sets what an upload of tightly packed client memory needs.
void begin_upload(const GlBlitFns& f, Saved& s) {
  f.get_integerv(kTextureBinding2d, &s.texture);
  f.get_integerv(kPixelUnpackBufferBinding, &s.unpack_buffer);
  if (s.unpack_buffer != 0) f.bind_buffer(kPixelUnpackBuffer, 0);
  for (int i = 0; i < 3; ++i) {
    f.get_integerv(kUnpackParams[i], &s.unpack[i]);
    if (s.unpack[i] != 0) f.pixel_storei(kUnpackParams[i], 0);
  }
  // Rows are 8 texels x 4 bytes = 32 bytes: every GL_UNPACK_ALIGNMENT (1, 2, 4, 8) divides it.
}

void end_upload(const GlBlitFns& f, const Saved& s) {
  for (int i = 0; i < 3; ++i)
    if (s.unpack[i] != 0) f.pixel_storei(kUnpackParams[i], s.unpack[i]);
  if (s.unpack_buffer != 0) f.bind_buffer(kPixelUnpackBuffer, static_cast<unsigned int>(s.unpack_buffer));
  f.bind_texture(kTexture2d, static_cast<unsigned int>(s.texture));
}

}  // namespace

bool usable(const GlBlitFns& f) {
  return f.get_integerv && f.is_enabled && f.enable && f.disable && f.gen_textures && f.delete_textures &&
         f.bind_texture && f.tex_image_2d && f.tex_sub_image_2d && f.pixel_storei && f.bind_buffer &&
         f.gen_framebuffers && f.delete_framebuffers && f.bind_framebuffer && f.framebuffer_texture_2d &&
         f.check_framebuffer_status && f.blit_framebuffer;
}

void marker_texels(std::uint32_t word, std::uint8_t out[kCells * 4]) {
  for (int gl_row = 0; gl_row < kRows; ++gl_row) {
    for (int column = 0; column < kColumns; ++column) {
      const int cell = column * kRows + (kRows - 1 - gl_row);
      const auto v = static_cast<std::uint8_t>(((word >> (31 - cell)) & 1u) ? 255 : 0);
      std::uint8_t* t = out + (gl_row * kColumns + column) * 4;
      t[0] = t[1] = t[2] = v;
      t[3] = 255;
    }
  }
}

bool MarkerBlitter::setup(const GlBlitFns& fns, int gl_major) noexcept {
  if (ready()) return true;
  if (gl_major < 3 || !usable(fns)) return false;
  const GlBlitFns& f = fns;
  Saved s;
  f.get_integerv(kDrawFramebufferBinding, &s.draw_fb);
  f.get_integerv(kReadFramebufferBinding, &s.read_fb);
  // A multisampled default framebuffer cannot be blitted into from a single-sampled one.
  if (s.draw_fb != 0) f.bind_framebuffer(kDrawFramebuffer, 0);
  int samples = 0;
  f.get_integerv(kSampleBuffers, &samples);
  if (s.draw_fb != 0) f.bind_framebuffer(kDrawFramebuffer, static_cast<unsigned int>(s.draw_fb));
  if (samples != 0) return false;

  begin_upload(f, s);
  unsigned int texture = 0, fbo = 0;
  f.gen_textures(1, &texture);
  f.bind_texture(kTexture2d, texture);
  f.tex_image_2d(kTexture2d, 0, static_cast<int>(kRgba8), kColumns, kRows, 0, kRgba, kUnsignedByte, nullptr);
  end_upload(f, s);
  f.gen_framebuffers(1, &fbo);
  f.bind_framebuffer(kReadFramebuffer, fbo);
  f.framebuffer_texture_2d(kReadFramebuffer, kColorAttachment0, kTexture2d, texture, 0);
  const bool complete = f.check_framebuffer_status(kReadFramebuffer) == kFramebufferComplete;
  f.bind_framebuffer(kReadFramebuffer, static_cast<unsigned int>(s.read_fb));
  if (!complete || texture == 0 || fbo == 0) {
    f.delete_framebuffers(1, &fbo);
    f.delete_textures(1, &texture);
    return false;
  }
  f_ = fns;
  texture_ = texture;
  fbo_ = fbo;
  return true;
}

bool MarkerBlitter::draw(std::uint32_t word, int x, int y) noexcept {
  if (!ready()) return false;
  const GlBlitFns& f = f_;
  std::uint8_t texels[kCells * 4];
  marker_texels(word, texels);

  Saved s;
  begin_upload(f, s);
  f.bind_texture(kTexture2d, texture_);
  f.tex_sub_image_2d(kTexture2d, 0, 0, 0, kColumns, kRows, kRgba, kUnsignedByte, texels);
  end_upload(f, s);

  f.get_integerv(kDrawFramebufferBinding, &s.draw_fb);
  f.get_integerv(kReadFramebufferBinding, &s.read_fb);
  s.scissor = f.is_enabled(kScissorTest) != 0;
  // The blit honours the scissor test; the colour write mask and dither do not apply to it, and
  // pure black and white are fixed points of sRGB encoding.
  if (s.scissor) f.disable(kScissorTest);
  if (s.draw_fb != 0) f.bind_framebuffer(kDrawFramebuffer, 0);
  f.bind_framebuffer(kReadFramebuffer, fbo_);
  f.blit_framebuffer(0, 0, kColumns, kRows, x, y, x + kMarkerWidth, y + kMarkerHeight, kColorBufferBit, kNearest);
  f.bind_framebuffer(kReadFramebuffer, static_cast<unsigned int>(s.read_fb));
  if (s.draw_fb != 0) f.bind_framebuffer(kDrawFramebuffer, static_cast<unsigned int>(s.draw_fb));
  if (s.scissor) f.enable(kScissorTest);
  return true;
}

bool marker_position(const MarkerLayout& marker, int& x, int& y) {
  if (marker.count <= 0) return false;
  x = marker.rects[0].x;
  y = marker.rects[0].y;
  return true;
}

}  // namespace pictor::tag
