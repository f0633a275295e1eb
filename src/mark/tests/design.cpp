// Design (MotionMark: HTML text rendering): words in many sizes laid along a ray from the centre
// that rotates; glyphs come from a FreeType atlas of DejaVu Sans (fonts-dejavu-core).
#include <ft2build.h>
#include FT_FREETYPE_H

#include <array>
#include <cmath>
#include <string>

#include "core/error.h"
#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

constexpr const char* kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr int kAtlasPixelSize = 48;  // glyphs are rasterised once at this size and scaled
constexpr int kAtlasWidth = 1024, kAtlasHeight = 512;
constexpr int kFirstChar = 32, kLastChar = 126;

struct Glyph {
  float u0 = 0, v0 = 0, u1 = 0, v1 = 0;  // atlas rect
  float width = 0, height = 0;           // bitmap size at kAtlasPixelSize
  float left = 0, top = 0, advance = 0;  // bearings and advance at kAtlasPixelSize
};

struct Word {
  int text = 0;  // index into kWords
  double size = 0, offset = 0, along = 0, hue = 0;
};

const std::array<const char*, 12> kWords = {"Pictor", "mark",   "frame", "graphics", "Design", "type",
                                            "kerning", "glyph", "ray",   "motion",   "scene",  "layout"};

class Design final : public SceneStage<Word> {
 public:
  explicit Design(SpriteRenderer& r) : SceneStage(r) { build_atlas(); }
  ~Design() override { delete_texture(texture_); }

 private:
  void build_atlas() {
    FT_Library library = nullptr;
    if (FT_Init_FreeType(&library)) throw RunError("mark design: cannot initialise FreeType");
    FT_Face face = nullptr;
    if (FT_New_Face(library, kFont, 0, &face)) {
      FT_Done_FreeType(library);
      throw RunError(std::string("mark design: cannot load font ") + kFont + " (install fonts-dejavu-core)");
    }
    FT_Set_Pixel_Sizes(face, 0, kAtlasPixelSize);
    std::vector<uint8_t> rgba(static_cast<std::size_t>(kAtlasWidth * kAtlasHeight * 4), 0);
    int pen_x = 1, pen_y = 1, row_height = 0;
    for (int c = kFirstChar; c <= kLastChar; ++c) {
      if (FT_Load_Char(face, static_cast<FT_ULong>(c), FT_LOAD_RENDER)) continue;
      const FT_Bitmap& bm = face->glyph->bitmap;
      const int w = static_cast<int>(bm.width), h = static_cast<int>(bm.rows);
      if (pen_x + w + 1 > kAtlasWidth) pen_x = 1, pen_y += row_height + 1, row_height = 0;
      if (pen_y + h + 1 > kAtlasHeight) break;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const uint8_t v = bm.buffer[y * bm.pitch + x];
          uint8_t* p = &rgba[static_cast<std::size_t>(((pen_y + y) * kAtlasWidth + pen_x + x) * 4)];
          p[0] = p[1] = p[2] = p[3] = v;
        }
      Glyph& g = glyphs_[c - kFirstChar];
      g.u0 = static_cast<float>(pen_x) / kAtlasWidth;
      g.v0 = static_cast<float>(pen_y) / kAtlasHeight;
      g.u1 = static_cast<float>(pen_x + w) / kAtlasWidth;
      g.v1 = static_cast<float>(pen_y + h) / kAtlasHeight;
      g.width = static_cast<float>(w);
      g.height = static_cast<float>(h);
      g.left = static_cast<float>(face->glyph->bitmap_left);
      g.top = static_cast<float>(face->glyph->bitmap_top);
      g.advance = static_cast<float>(face->glyph->advance.x) / 64.0f;
      pen_x += w + 1;
      row_height = std::max(row_height, h);
    }
    FT_Done_Face(face);
    FT_Done_FreeType(library);
    texture_ = make_texture(kAtlasWidth, kAtlasHeight, rgba);
  }

  Word make_element() override {
    Word w;
    w.text = prng_.integer(0, static_cast<int>(kWords.size()) - 1);
    w.size = prng_.range(8, 48);
    w.offset = prng_.range(-0.6, 0.6);  // angle around the ray, radians
    w.along = prng_.range(0.05, 1.0);   // distance along the ray, as a share of the half diagonal
    w.hue = prng_.range(0, 360);
    return w;
  }

  void draw(double) override {
    const double ray = time_ms_ / 2000 + frame_ * 0.003;
    const double reach = std::hypot(width_, height_) / 2;
    sprites_.clear();
    for (const auto& w : elements_) {
      const double angle = ray + w.offset * (1.2 - w.along);
      const double cx = width_ / 2 + std::cos(angle) * w.along * reach;
      const double cy = height_ / 2 + std::sin(angle) * w.along * reach;
      const double scale = w.size / kAtlasPixelSize;
      const double ux = std::cos(angle), uy = std::sin(angle);  // baseline direction
      float r, g, b;
      hsl_to_rgb(w.hue + ray * 20, 0.6, 0.35, r, g, b);
      double pen = 0;
      for (const char* ch = kWords[static_cast<std::size_t>(w.text)]; *ch; ++ch) {
        const Glyph& gl = glyphs_[*ch - kFirstChar];
        // Glyph centre relative to the pen on the baseline, in the word's rotated frame.
        const double gx = pen + (gl.left + gl.width / 2) * scale;
        const double gy = -(gl.top - gl.height / 2) * scale;
        Sprite s;
        s.cx = static_cast<float>(cx + ux * gx - uy * gy);
        s.cy = static_cast<float>(cy + uy * gx + ux * gy);
        s.hx = static_cast<float>(gl.width / 2 * scale);
        s.hy = static_cast<float>(gl.height / 2 * scale);
        s.rotation = static_cast<float>(angle);
        s.r = r, s.g = g, s.b = b, s.a = 1;
        s.q0 = gl.u0, s.q1 = gl.v0, s.q2 = gl.u1, s.q3 = gl.v1;
        if (gl.width > 0) sprites_.push_back(s);
        pen += gl.advance * scale;
      }
    }
    renderer_.clear(1, 1, 1);
    renderer_.draw(Shape::TexturedAlpha, sprites_, texture_);
  }

  std::array<Glyph, kLastChar - kFirstChar + 1> glyphs_{};
  unsigned texture_ = 0;
};

}  // namespace

std::unique_ptr<Stage> make_design(SpriteRenderer& renderer) { return std::make_unique<Design>(renderer); }

}  // namespace pictor::mark::stages
