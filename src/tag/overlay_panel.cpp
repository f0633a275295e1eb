#include "tag/overlay_panel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace pictor::tag {
namespace {

// The report's dark theme (report/graph_scene.cpp), opaque: a blit copies, it does not blend.
constexpr std::uint8_t kBackground[4] = {0x14, 0x16, 0x1b, 255};
constexpr std::uint8_t kText[4] = {0xe8, 0xea, 0xee, 255};
constexpr std::uint8_t kTextDim[4] = {0x9a, 0xa1, 0xad, 255};
constexpr int kPad = 3;
constexpr int kTextRow = 3;             // top of the text line
constexpr int kGraphTop = 13;           // below the text line
constexpr int kAxisWidth = 4 * kGlyphAdvance + 2;  // "33.3" and a gap
constexpr int kMaxGraphHeight = 64;     // the report's default maximum bar
constexpr int kMinGraphWidth = 16;
constexpr int kMinGraphHeight = 8;
constexpr double kGuideMs[2] = {1000.0 / 60.0, 1000.0 / 30.0};
constexpr const char* kGuideLabel[2] = {"16.7", "33.3"};

// 5 x 7 glyphs, one byte per row (bits 4..0, left to right), top row first.
struct Glyph {
  char c;
  std::uint8_t rows[7];
};
constexpr Glyph kGlyphs[] = {
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}}, {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}}, {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}}, {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}}, {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}}, {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}}, {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}},
    {'>', {0x10, 0x08, 0x04, 0x02, 0x04, 0x08, 0x10}}, {'/', {0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10}},
    {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}}, {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}},
    {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}}, {'I', {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'N', {0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x11}}, {'R', {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11}},
    {'E', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}}, {'T', {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'M', {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}},
};

// The gradient of report/frametime_geometry.cpp (blue #3366ff, green, yellow, red at equal
// steps of log2 frame time, mixed in linear light), tabulated once at kSteps + 1 fractions so
// the render thread never calls pow(); a multiple of 3, so 60 and 30 FPS hit the stops exactly.
constexpr int kSteps = 63;
struct GradientTable {
  std::uint8_t rgb[kSteps + 1][3];
  GradientTable() noexcept {
    constexpr double stops[4][3] = {{0.2, 0.4, 1.0}, {0.0, 1.0, 0.0}, {1.0, 1.0, 0.0}, {1.0, 0.0, 0.0}};
    auto lin = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    auto enc = [](double c) { return c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; };
    for (int s = 0; s <= kSteps; ++s) {
      const double pos = 3.0 * s / kSteps;
      const int i = pos >= 3.0 ? 2 : static_cast<int>(pos);
      const double t = pos - i;
      for (int ch = 0; ch < 3; ++ch) {
        const double a = lin(stops[i][ch]), b = lin(stops[i + 1][ch]);
        rgb[s][ch] = static_cast<std::uint8_t>(std::lround(enc(a + (b - a) * t) * 255.0));
      }
    }
  }
};

double height_fraction(double dt_ms) noexcept {
  if (!(dt_ms > kFastMs)) return 0.0;
  const double f = (std::log2(dt_ms) - std::log2(kFastMs)) / (std::log2(kSlowMs) - std::log2(kFastMs));
  return f > 1.0 ? 1.0 : f;
}

void put(std::uint8_t* p, const std::uint8_t c[4]) noexcept { std::memcpy(p, c, 4); }

// "FPS 59.9  IN>PRESENT 12.3 MS", unknowns as "-".
void panel_text(const PanelFigures& f, char* out, std::size_t size) noexcept {
  char fps[16] = "-", lat[24] = "-";
  if (f.fps >= 0) std::snprintf(fps, sizeof fps, "%.1f", f.fps < 9999.0 ? f.fps : 9999.0);
  if (f.in_present_ms >= 0)
    std::snprintf(lat, sizeof lat, "%.1f MS", f.in_present_ms < 99999.0 ? f.in_present_ms : 99999.0);
  std::snprintf(out, size, "FPS %s  IN>PRESENT %s", fps, lat);
}

}  // namespace

bool parse_overlay_key(const char* text, OverlayKey& key) noexcept {
  unsigned m = 0;
  const char* p = text;
  for (;;) {
    const char* plus = std::strchr(p, '+');
    if (!plus) break;
    const auto n = static_cast<std::size_t>(plus - p);
    if (n == 5 && strncasecmp(p, "shift", 5) == 0) m |= 0x1;
    else if ((n == 4 && strncasecmp(p, "ctrl", 4) == 0) || (n == 7 && strncasecmp(p, "control", 7) == 0)) m |= 0x4;
    else if (n == 3 && strncasecmp(p, "alt", 3) == 0) m |= 0x8;
    else if (n == 5 && strncasecmp(p, "super", 5) == 0) m |= 0x40;
    else return false;
    p = plus + 1;
  }
  if ((*p != 'F' && *p != 'f') || p[1] < '0' || p[1] > '9') return false;
  char* end = nullptr;
  const long f = std::strtol(p + 1, &end, 10);
  if (end == p + 1 || *end || f < 1 || f > 12) return false;
  // Keysyms XK_F1.. are consecutive; evdev keycodes (8 + the kernel's KEY_F*) are not.
  constexpr unsigned kEvdev[12] = {67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 95, 96};
  key.mods = m;
  key.keysym = 0xffbe + static_cast<unsigned>(f - 1);
  key.keycode = kEvdev[f - 1];
  return true;
}

void FrameHistory::push(std::int64_t swap_ns) noexcept {
  if (count_ == 0) {
    restart_columns(swap_ns);
  } else {
    const std::int64_t prev = at_age(0);
    if (swap_ns >= prev) {
      const double dt_ms = static_cast<double>(swap_ns - prev) * 1e-6;
      const std::int64_t first = (prev - origin_ns_) / kColumnNs;
      std::int64_t end = (swap_ns - origin_ns_ + kColumnNs - 1) / kColumnNs;
      if (end <= first) end = first + 1;
      // A stall longer than the ring: only its last kColumns columns can still be shown.
      for (std::int64_t c = end - kColumns > first ? end - kColumns : first; c < end; ++c) {
        const int slot = static_cast<int>(c % kColumns);
        if (column_id_[slot] != c || column_ms_[slot] < dt_ms) column_ms_[slot] = dt_ms;
        column_id_[slot] = c;
      }
      newest_column_ = end - 1;
    } else {
      restart_columns(swap_ns);  // the clock stepped backwards: the graph starts afresh
    }
  }
  ns_[next_] = swap_ns;
  next_ = (next_ + 1) % kCapacity;
  if (count_ < kCapacity) ++count_;
}

std::int64_t FrameHistory::at_age(int age) const noexcept {
  return ns_[((next_ - 1 - age) % kCapacity + kCapacity) % kCapacity];
}

double FrameHistory::fps_last_second() const noexcept {
  if (count_ < 2) return -1;
  const std::int64_t newest = at_age(0);
  int n = 1;
  while (n < count_ && newest - at_age(n) <= 1'000'000'000) ++n;
  if (n < 2) return -1;
  const std::int64_t span = newest - at_age(n - 1);
  return span > 0 ? (n - 1) * 1e9 / static_cast<double>(span) : -1;
}

void FrameHistory::restart_columns(std::int64_t origin_ns) noexcept {
  origin_ns_ = origin_ns;
  newest_column_ = -1;
  for (std::int64_t& id : column_id_) id = -1;
}

double FrameHistory::column_ms(int age) const noexcept {
  const std::int64_t c = newest_column_ - age;
  if (newest_column_ < 0 || age < 0 || age >= kColumns || c < 0) return -1;
  const int slot = static_cast<int>(c % kColumns);
  return column_id_[slot] == c ? column_ms_[slot] : -1;
}

bool panel_size(int avail_w, int avail_h, int& width, int& height) noexcept {
  width = avail_w < kPanelWidth ? avail_w : kPanelWidth;
  width &= ~1;
  height = avail_h < kPanelHeight ? avail_h : kPanelHeight;
  return width >= kPanelMinWidth && height >= kPanelMinHeight;
}

PanelPlace panel_place(Corner marker_corner, int win_w, int win_h) noexcept {
  PanelPlace p;
  const int marker_band = kMarkerHeight + kCellPx;
  const bool bottom = marker_corner == Corner::bottom_left || marker_corner == Corner::bottom_right;
  p.y = bottom ? marker_band : 0;
  p.avail_w = win_w > 0 ? win_w : 0;
  p.avail_h = win_h - marker_band > 0 ? win_h - marker_band : 0;
  return p;
}

GraphBox graph_box(int panel_w, int panel_h) noexcept {
  GraphBox g;
  g.x = panel_w >= 128 ? kPad + kAxisWidth : kPad;  // a narrow panel drops the axis labels
  g.y = kGraphTop;
  g.width = panel_w - kPad - g.x;
  g.height = panel_h - kPad - g.y;
  if (g.height > kMaxGraphHeight) g.height = kMaxGraphHeight;
  if (g.width < kMinGraphWidth || g.height < kMinGraphHeight) g.width = g.height = 0;
  return g;
}

int bar_height_px(double dt_ms, int max_height) noexcept {
  const double h = kGraphMinBarPx + height_fraction(dt_ms) * (max_height - kGraphMinBarPx);
  return static_cast<int>(h + 0.5);
}

namespace {
// kGlyphs by character code (ASCII only), built once.
struct GlyphIndex {
  const Glyph* by_char[128] = {};
  GlyphIndex() noexcept {
    for (const Glyph& g : kGlyphs) by_char[static_cast<unsigned char>(g.c)] = &g;
  }
};
}  // namespace

std::uint8_t glyph_row(char c, int row) noexcept {
  static const GlyphIndex index;
  const auto u = static_cast<unsigned char>(c);
  if (row < 0 || row >= 7 || u >= 128 || !index.by_char[u]) return 0;
  return index.by_char[u]->rows[row];
}

int draw_text(PanelImage& image, int x, int y, const char* text, const std::uint8_t rgba[4]) noexcept {
  for (; *text; ++text, x += kGlyphAdvance) {
    if (x >= image.width) continue;
    for (int r = 0; r < 7; ++r) {
      const std::uint8_t bits = glyph_row(*text, r);
      if (!bits || y + r < 0 || y + r >= image.height) continue;
      for (int c = 0; c < 5; ++c)
        if ((bits >> (4 - c)) & 1u && x + c >= 0 && x + c < image.width) put(image.at(x + c, y + r), rgba);
    }
  }
  return x;
}

// What does not change from frame to frame at one size: the ground, the guide lines and their
// labels; copied whole at each frame, then the text and the bars go on top.
void rasterise_base(PanelImage& out, int width, int height) noexcept {
  out.base_width = width;
  out.base_height = height;
  PanelImage::Pixel* px = out.base;
  for (int i = 0; i < width * height; ++i) std::memcpy(px[i], kBackground, 4);
  const GraphBox g = graph_box(width, height);
  if (g.height == 0) return;
  const int bottom = g.y + g.height - 1;
  for (int i = 0; i < 2; ++i) {
    const int y = bottom + 1 - bar_height_px(kGuideMs[i], g.height);
    for (int x = g.x; x < g.x + g.width; ++x) {
      std::uint8_t* p = px[(height - 1 - y) * width + x];
      for (int ch = 0; ch < 3; ++ch) p[ch] = static_cast<std::uint8_t>((p[ch] + 0xb0) / 2);
    }
  }
}

void rasterise_panel(const FrameHistory& history, const PanelFigures& figures, int width, int height,
                     PanelImage& out) noexcept {
  static const GradientTable gradient;
  if (out.base_width != width || out.base_height != height) {
    rasterise_base(out, width, height);
    // The axis labels, drawn once into the base through a view of it.
    const GraphBox g = graph_box(width, height);
    if (g.height > 0 && g.x > kPad) {
      out.width = width;
      out.height = height;
      std::memcpy(out.rgba, out.base, static_cast<std::size_t>(width) * height * 4);
      for (int i = 0; i < 2; ++i)
        draw_text(out, kPad, g.y + g.height - bar_height_px(kGuideMs[i], g.height) - 3, kGuideLabel[i], kTextDim);
      std::memcpy(out.base, out.rgba, static_cast<std::size_t>(width) * height * 4);
    }
  }
  out.width = width;
  out.height = height;
  std::memcpy(out.rgba, out.base, static_cast<std::size_t>(width) * height * 4);
  char text[64];
  panel_text(figures, text, sizeof text);
  draw_text(out, kPad, kTextRow, text, kText);

  const GraphBox g = graph_box(width, height);
  if (g.height == 0) return;
  // Each column shows the slowest frame that touched it (FrameHistory), so a hitch is never
  // hidden by a fast neighbour sharing its pixel; the newest column at the right edge. Where a
  // bar crosses a guide line, the line is blended over the bar as over the ground.
  const int bottom = g.y + g.height - 1;
  const int guide0 = bottom + 1 - bar_height_px(kGuideMs[0], g.height);
  const int guide1 = bottom + 1 - bar_height_px(kGuideMs[1], g.height);
  for (int x = 0; x < g.width; ++x) {
    const double ms = history.column_ms(g.width - 1 - x);
    if (ms < 0) continue;
    const double f = height_fraction(ms);
    const int h = static_cast<int>(kGraphMinBarPx + f * (g.height - kGraphMinBarPx) + 0.5);
    const std::uint8_t* rgb = gradient.rgb[static_cast<int>(f * kSteps + 0.5)];
    const std::uint8_t c[4] = {rgb[0], rgb[1], rgb[2], 255};
    std::uint8_t lined[4];
    for (int ch = 0; ch < 3; ++ch) lined[ch] = static_cast<std::uint8_t>((c[ch] + 0xb0) / 2);
    lined[3] = 255;
    // Rows are stored bottom first: up the screen is one row forward in memory.
    std::uint8_t* p = out.at(g.x + x, bottom);
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(width) * 4;
    for (int y = bottom; y > bottom - h; --y, p += row) put(p, y == guide0 || y == guide1 ? lined : c);
  }
}

}  // namespace pictor::tag
