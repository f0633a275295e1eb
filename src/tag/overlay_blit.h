// Draws the overlay panel (overlay_panel.h) into the default framebuffer the way MarkerBlitter
// draws the marker: one glTexSubImage2D into a kPanelWidth x kPanelHeight texture of the
// interposer's own and one glBlitFramebuffer (GL_NEAREST, 1:1) from a framebuffer object of its
// own. Needs GL >= 3.0 or GLES >= 3.0 and a single-sampled default framebuffer. Touches and
// restores exactly MarkerBlitter's state (draw and read framebuffer bindings, scissor test, the
// active unit's 2D texture binding, the pixel-unpack buffer, unpack row length / skip rows /
// skip pixels); GL_UNPACK_ALIGNMENT is never changed, the panel's rows being a multiple of 8
// bytes. The panel's colours are copied as they are (a blit neither blends nor dithers).
#pragma once
#include "tag/marker_blit.h"
#include "tag/overlay_panel.h"

namespace pictor::tag {

class OverlayBlitter {
 public:
  // False (nothing left created or changed) where the context cannot blit: GL < 3, a missing
  // entry point, a multisampled default framebuffer, an incomplete framebuffer object.
  bool setup(const GlBlitFns& fns, int gl_major) noexcept;
  bool ready() const noexcept { return fbo_ != 0; }
  // Forgets the GL objects without deleting them (their context is gone).
  void forget() noexcept { texture_ = fbo_ = 0; width_ = height_ = 0; }
  // Uploads the panel into the texture. False (no GL call) when not ready() or the image is
  // empty, larger than the texture or of odd width.
  bool upload(const PanelImage& image) noexcept;
  // Blits the last uploaded panel with its bottom-left corner at (x, y), GL window
  // coordinates. False (no GL call) before any upload.
  bool blit(int x, int y) noexcept;
  // upload() then blit().
  bool draw(const PanelImage& image, int x, int y) noexcept { return upload(image) && blit(x, y); }

 private:
  GlBlitFns f_;
  unsigned int texture_ = 0;
  unsigned int fbo_ = 0;
  int width_ = 0, height_ = 0;  // of the last upload
};

}  // namespace pictor::tag
