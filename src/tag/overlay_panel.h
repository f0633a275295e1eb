// The in-app overlay's panel (PICTOR_OVERLAY=1, docs/overlay.md), rasterised on the CPU into a
// small RGBA image of the interposer's own: the frame-time graph of the last ~2 s in the seed
// article's form (one bar per frame, width proportional to its time, height to log2 of it, the
// blue -> green -> yellow -> red gradient; 16.7 and 33.3 ms guide lines), the FPS of the last
// second and the hook's own in->present latency, in a 5 x 7 bitmap font of its own.
// GL-free, allocation-free and libc-only: it runs inside the app, on its render thread.
#pragma once
#include <cstdint>

#include "tag/marker_layout.h"

namespace pictor::tag {

inline constexpr int kPanelWidth = 256;
inline constexpr int kPanelHeight = 80;
// Below this the panel is not drawn at all (no room for its text line).
inline constexpr int kPanelMinWidth = 64;
inline constexpr int kPanelMinHeight = 13;

// The graph's fixed scale, the report's defaults (report/frametime_geometry.h): a frame of
// kFastMs is 1 px wide and at the minimum height, one of kSlowMs or longer at the maximum.
inline constexpr double kFastMs = 1000.0 / 120.0;
inline constexpr double kSlowMs = 1000.0 / 15.0;
inline constexpr int kGraphMinBarPx = 2;
// One graph column, in whole ns (120.000005 FPS), so that columns are exact integer divisions.
inline constexpr std::int64_t kColumnNs = 8'333'333;

// One context's recent frames: the swap times of the last kCapacity frames (for the FPS), and
// the graph's columns. Frames are placed on the seed's running sum of frame times, i.e. the time
// since the first frame, cut into kColumnNs columns: a frame covers every column from the one
// its start falls in to the one its end falls in (at least one), and a column keeps the longest
// frame that covered it. So the graph's cost per frame does not grow with the FPS.
class FrameHistory {
 public:
  static constexpr int kCapacity = 512;
  static constexpr int kColumns = 256;  // >= the widest graph
  void push(std::int64_t swap_ns) noexcept;
  void clear() noexcept { count_ = 0; }
  int count() const noexcept { return count_; }
  // The swap time `age` frames before the newest (0: the newest); age < count().
  std::int64_t at_age(int age) const noexcept;
  // Frames per second over the frames of the last second before the newest: (n - 1) intervals
  // over their span (over the last kCapacity frames when they span less than a second).
  // Negative (unknown) with fewer than two frames in that second.
  double fps_last_second() const noexcept;
  // The longest frame (ms) of the column `age` columns before the newest one (0: the column
  // the newest frame ended in); negative where no frame was (before the first, or too old).
  double column_ms(int age) const noexcept;

 private:
  std::int64_t ns_[kCapacity] = {};
  int next_ = 0;
  int count_ = 0;
  std::int64_t origin_ns_ = 0;          // the first frame's swap time
  std::int64_t newest_column_ = -1;     // column number (from origin) the newest frame ended in
  void restart_columns(std::int64_t origin_ns) noexcept;
  std::int64_t column_id_[kColumns] = {};  // which column number each ring slot holds (-1: none)
  double column_ms_[kColumns] = {};
};

// What the panel shows; a negative value is unknown and shown as "-".
struct PanelFigures {
  double fps = -1;
  double in_present_ms = -1;
};

// The panel's pixels, RGBA, rows bottom first (GL's texture origin), `width` texels a row.
struct PanelImage {
  int width = 0;   // even (rows of width * 4 bytes suit every GL_UNPACK_ALIGNMENT)
  int height = 0;
  std::uint8_t rgba[kPanelWidth * kPanelHeight * 4] = {};
  // rasterise_panel's cache: the parts that stay from frame to frame, at base_width x base_height.
  using Pixel = std::uint8_t[4];
  int base_width = 0, base_height = 0;
  Pixel base[kPanelWidth * kPanelHeight] = {};
  // The texel at (x, y) counted from the top-left, as on screen.
  const std::uint8_t* at(int x, int y) const noexcept { return rgba + ((height - 1 - y) * width + x) * 4; }
  std::uint8_t* at(int x, int y) noexcept { return rgba + ((height - 1 - y) * width + x) * 4; }
};

// The panel's size in a space of avail_w x avail_h px: the full panel, or less where the window
// is smaller (the graph covers less time, or loses height); false when even the text line does
// not fit (then nothing is drawn).
bool panel_size(int avail_w, int avail_h, int& width, int& height) noexcept;

// Where the panel goes in a window of win_w x win_h px: its bottom-left corner (GL window
// coordinates, x = 0) and the room it may fill, which never reaches the marker's corner: above
// the marker's row (one cell of gap) when the marker is at the bottom, below it otherwise.
struct PanelPlace {
  int x = 0, y = 0, avail_w = 0, avail_h = 0;
};
PanelPlace panel_place(Corner marker_corner, int win_w, int win_h) noexcept;

// Where the graph sits inside a panel of that size (top-left origin); height 0: no graph.
struct GraphBox {
  int x = 0, y = 0, width = 0, height = 0;
};
GraphBox graph_box(int panel_w, int panel_h) noexcept;
// The bar height (px) of a frame of dt_ms in a graph of max_height px, on the fixed log2 scale.
int bar_height_px(double dt_ms, int max_height) noexcept;

// Rasterises the panel at width x height (from panel_size) into `out`.
void rasterise_panel(const FrameHistory& history, const PanelFigures& figures, int width, int height,
                     PanelImage& out) noexcept;

// The toggle key: the X modifier bits that must be down (ShiftMask 0x1, ControlMask 0x4, Mod1Mask
// 0x8, Mod4Mask 0x40), its keysym (Xlib path) and its evdev keycode (XCB path).
struct OverlayKey {
  unsigned mods = 0x1;
  unsigned keysym = 0xffc9;  // XK_F12
  unsigned keycode = 96;
};
// Parses "Shift+F12", "Ctrl+Alt+F9", "F10" (any case): modifiers Shift, Ctrl (Control), Alt,
// Super joined by '+', then F1..F12. False (key unchanged) for anything else.
bool parse_overlay_key(const char* text, OverlayKey& key) noexcept;

// The 5 x 7 font: bits 4..0 of row r (0 top) of character c, 0 for characters it lacks (drawn as
// blank). It has digits, ". - > /" and the capitals F P S I N R E T M.
std::uint8_t glyph_row(char c, int row) noexcept;
inline constexpr int kGlyphAdvance = 6;  // 5 px and 1 px of space
// Draws text with its top-left at (x, y), clipped to the image; returns the x after it.
int draw_text(PanelImage& image, int x, int y, const char* text, const std::uint8_t rgba[4]) noexcept;

}  // namespace pictor::tag
