// Where the tag marker sits in a window and which rectangles the interposer clears to draw it:
// 8 x 4 cells of 8 x 8 px (64 x 32 px, 0.099 % of 1920 x 1080) in one configurable corner.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "tag/marker_code.h"

namespace pictor::tag {

inline constexpr int kCellPx = 8;       // one cell = one 8 x 8 block of the window's own grid
inline constexpr int kColumns = 8;
inline constexpr int kRows = 4;
inline constexpr int kCells = kColumns * kRows;
inline constexpr int kMarkerWidth = kColumns * kCellPx;   // 64 px
inline constexpr int kMarkerHeight = kRows * kCellPx;     // 32 px
static_assert(kCells == kWordBits, "one cell per bit of the word");
static_assert(kMarkerWidth * kMarkerHeight * 1000 <= 1920 * 1080, "at most 0.1 % of 1920x1080");

// The window corner the marker touches. Cells count from that corner, so they stay aligned to
// the window's 8 x 8 grid measured from it whatever the window size.
enum class Corner { bottom_left, bottom_right, top_left, top_right };
inline constexpr Corner kDefaultCorner = Corner::bottom_left;

// "bottom-left", "bottom-right", "top-left", "top-right"; throws UsageError naming the text.
Corner parse_corner(std::string_view text);
std::string_view corner_name(Corner corner);

// Cell index -> position. Cell i holds bit (31 - i) of the word; cells run down each column
// first (column-major), so that damage confined to three adjacent columns (what one or two
// JPEG blocks can reach) is a burst of at most 12 bits, which the CRC-12 always detects.
// Column 0 is the marker's left column and row 0 its top row, as seen on screen, for every
// corner (the marker is never mirrored).
inline constexpr int cell_column(int cell) { return cell / kRows; }
inline constexpr int cell_row(int cell) { return cell % kRows; }

// Top-left pixel of the marker in an image of a window (origin top-left, y down).
struct PixelPoint {
  int x = 0;
  int y = 0;
  bool operator==(const PixelPoint&) const = default;
};
PixelPoint marker_origin_in_image(int window_w, int window_h, Corner corner);

// One scissored clear, in GL window coordinates (origin bottom-left, y up).
struct MarkerRect {
  int x = 0;
  int y = 0;
  int w = 0;
  int h = 0;
  bool white = false;
  bool operator==(const MarkerRect&) const = default;
};

// The clears that draw one marker, in order: first the whole marker in its majority colour,
// then merged runs of the other colour. Fixed capacity so the render thread never allocates.
struct MarkerLayout {
  static constexpr int kMaxRects = 1 + kCells / 2;  // background + at most 16 minority runs
  std::array<MarkerRect, kMaxRects> rects{};
  int count = 0;  // 0 when the window is smaller than the marker: nothing is drawn
};

// The clears for `payload` in a window of window_w x window_h px.
MarkerLayout layout(const MarkerPayload& payload, int window_w, int window_h,
                    Corner corner = kDefaultCorner);

// The cell colours a layout paints, as a word (bit 31 - i = cell i is white); used by tests
// and tools to check a layout against encode_word().
std::uint32_t layout_word(const MarkerLayout& marker, int window_w, int window_h, Corner corner);

}  // namespace pictor::tag
