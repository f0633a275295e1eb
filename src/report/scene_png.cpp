// PNG painter of the graph scene through cairo's image surface and its toy text API.
#include <cairo.h>
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "report/scene_render.h"

namespace pictor::report {
namespace {

// cairo's image surfaces (and pixman below them) stop at this many pixels per side.
constexpr int kMaxImageSide = kMaxPngSidePx;

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using ContextPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

void fill_rects(cairo_t* cr, const std::vector<SceneRect>& rects) {
  for (const SceneRect& r : rects) {
    cairo_set_source_rgb(cr, r.fill.r, r.fill.g, r.fill.b);
    cairo_rectangle(cr, r.x, r.y, r.width, r.height);
    cairo_fill(cr);
  }
}

void stroke_lines(cairo_t* cr, const std::vector<SceneLine>& lines) {
  cairo_set_line_width(cr, 1.0);
  const double dash[] = {3.0, 3.0};
  for (const SceneLine& l : lines) {
    cairo_set_source_rgba(cr, l.stroke.r, l.stroke.g, l.stroke.b, l.alpha);
    cairo_set_dash(cr, dash, l.dashed ? 2 : 0, 0.0);
    cairo_move_to(cr, l.x1, l.y1);
    cairo_line_to(cr, l.x2, l.y2);
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0.0);
}

void paint(cairo_t* cr, const GraphScene& scene) {
  cairo_set_source_rgb(cr, scene.background.r, scene.background.g, scene.background.b);
  cairo_paint(cr);

  // Bars sit on whole pixels; antialiasing would only blur the 1-px frames.
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
  fill_rects(cr, scene.panels);
  stroke_lines(cr, scene.grid);
  fill_rects(cr, scene.rects);
  stroke_lines(cr, scene.lines);

  cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
  for (const SceneText& t : scene.texts) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           t.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, t.size_px);
    double x = t.x;
    if (t.anchor != TextAnchor::Start) {
      cairo_text_extents_t ext;
      cairo_text_extents(cr, t.text.c_str(), &ext);
      x -= t.anchor == TextAnchor::End ? ext.x_advance : ext.x_advance / 2;
    }
    cairo_set_source_rgb(cr, t.fill.r, t.fill.g, t.fill.b);
    cairo_move_to(cr, x, t.y);
    cairo_show_text(cr, t.text.c_str());
  }
}

cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

void write_scene_png(const GraphScene& scene, const std::string& path) {
  if (scene.width > kMaxImageSide || scene.height > kMaxImageSide) {
    throw UsageError(
        fmt::format("{}: the graph would be {}x{} px, more than a PNG can hold here ({} per side); "
                    "use a larger --width or an .svg file",
                    path, scene.width, scene.height, kMaxImageSide));
  }
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, scene.width, scene.height),
                     &cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    throw RunError(fmt::format("{}: cannot create a {}x{} image: {}", path, scene.width,
                               scene.height,
                               cairo_status_to_string(cairo_surface_status(surface.get()))));
  }
  {
    ContextPtr cr(cairo_create(surface.get()), &cairo_destroy);
    paint(cr.get(), scene);
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS) {
      throw RunError(fmt::format("{}: drawing failed: {}", path,
                                 cairo_status_to_string(cairo_status(cr.get()))));
    }
  }
  cairo_surface_flush(surface.get());

  // Encoded in memory, then written whole (temporary name + rename): a full disk leaves no
  // half image, and the error names the OS's reason.
  std::string png;
  const cairo_status_t st = cairo_surface_write_to_png_stream(surface.get(), append_to_string, &png);
  if (st != CAIRO_STATUS_SUCCESS)
    throw RunError(fmt::format("{}: encoding the PNG failed: {}", path, cairo_status_to_string(st)));
  write_text_file(path, png);
}

}  // namespace pictor::report
