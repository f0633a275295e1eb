#include "tag/blit_state.h"

namespace pictor::tag::blit {
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
  // GL_UNPACK_ALIGNMENT is left as it is: callers upload rows of a multiple of 8 bytes, which
  // every alignment (1, 2, 4, 8) divides.
}

void end_upload(const GlBlitFns& f, const Saved& s) {
  for (int i = 0; i < 3; ++i)
    if (s.unpack[i] != 0) f.pixel_storei(kUnpackParams[i], s.unpack[i]);
  if (s.unpack_buffer != 0) f.bind_buffer(kPixelUnpackBuffer, static_cast<unsigned int>(s.unpack_buffer));
  f.bind_texture(kTexture2d, static_cast<unsigned int>(s.texture));
}

}  // namespace

bool create_target(const GlBlitFns& f, int w, int h, unsigned int& texture, unsigned int& fbo) noexcept {
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
  texture = 0;
  fbo = 0;
  f.gen_textures(1, &texture);
  f.bind_texture(kTexture2d, texture);
  f.tex_image_2d(kTexture2d, 0, static_cast<int>(kRgba8), w, h, 0, kRgba, kUnsignedByte, nullptr);
  end_upload(f, s);
  f.gen_framebuffers(1, &fbo);
  f.bind_framebuffer(kReadFramebuffer, fbo);
  f.framebuffer_texture_2d(kReadFramebuffer, kColorAttachment0, kTexture2d, texture, 0);
  const bool complete = f.check_framebuffer_status(kReadFramebuffer) == kFramebufferComplete;
  f.bind_framebuffer(kReadFramebuffer, static_cast<unsigned int>(s.read_fb));
  if (!complete || texture == 0 || fbo == 0) {
    f.delete_framebuffers(1, &fbo);
    f.delete_textures(1, &texture);
    texture = fbo = 0;
    return false;
  }
  return true;
}

void upload(const GlBlitFns& f, unsigned int texture, int w, int h, const void* texels) noexcept {
  Saved s;
  begin_upload(f, s);
  f.bind_texture(kTexture2d, texture);
  f.tex_sub_image_2d(kTexture2d, 0, 0, 0, w, h, kRgba, kUnsignedByte, texels);
  end_upload(f, s);
}

void blit_to_default(const GlBlitFns& f, unsigned int fbo, int src_w, int src_h, int x, int y, int dst_w,
                     int dst_h) noexcept {
  Saved s;
  f.get_integerv(kDrawFramebufferBinding, &s.draw_fb);
  f.get_integerv(kReadFramebufferBinding, &s.read_fb);
  s.scissor = f.is_enabled(kScissorTest) != 0;
  if (s.scissor) f.disable(kScissorTest);
  if (s.draw_fb != 0) f.bind_framebuffer(kDrawFramebuffer, 0);
  f.bind_framebuffer(kReadFramebuffer, fbo);
  f.blit_framebuffer(0, 0, src_w, src_h, x, y, x + dst_w, y + dst_h, kColorBufferBit, kNearest);
  f.bind_framebuffer(kReadFramebuffer, static_cast<unsigned int>(s.read_fb));
  if (s.draw_fb != 0) f.bind_framebuffer(kDrawFramebuffer, static_cast<unsigned int>(s.draw_fb));
  if (s.scissor) f.enable(kScissorTest);
}

}  // namespace pictor::tag::blit
