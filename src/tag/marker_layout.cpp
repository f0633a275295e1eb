#include "tag/marker_layout.h"

#include <bit>
#include <string>

#include "core/error.h"

namespace pictor::tag {

namespace {

bool is_left(Corner c) { return c == Corner::bottom_left || c == Corner::top_left; }
bool is_top(Corner c) { return c == Corner::top_left || c == Corner::top_right; }

bool cell_white(std::uint32_t word, int column, int row) {
  const int cell = column * kRows + row;
  return ((word >> (31 - cell)) & 1u) != 0;
}

// Bottom-left pixel of the marker in GL window coordinates.
PixelPoint marker_origin_in_gl(int window_w, int window_h, Corner corner) {
  return PixelPoint{is_left(corner) ? 0 : window_w - kMarkerWidth,
                    is_top(corner) ? window_h - kMarkerHeight : 0};
}

bool fits(int window_w, int window_h) {
  return window_w >= kMarkerWidth && window_h >= kMarkerHeight;
}

}  // namespace

Corner parse_corner(std::string_view text) {
  for (Corner c : {Corner::bottom_left, Corner::bottom_right, Corner::top_left, Corner::top_right}) {
    if (text == corner_name(c)) return c;
  }
  throw UsageError("marker corner '" + std::string(text) +
                   "' is not one of bottom-left, bottom-right, top-left, top-right");
}

std::string_view corner_name(Corner corner) {
  switch (corner) {
    case Corner::bottom_left: return "bottom-left";
    case Corner::bottom_right: return "bottom-right";
    case Corner::top_left: return "top-left";
    case Corner::top_right: return "top-right";
  }
  return "bottom-left";
}

PixelPoint marker_origin_in_image(int window_w, int window_h, Corner corner) {
  return PixelPoint{is_left(corner) ? 0 : window_w - kMarkerWidth,
                    is_top(corner) ? 0 : window_h - kMarkerHeight};
}

MarkerLayout layout(const MarkerPayload& payload, int window_w, int window_h, Corner corner) {
  MarkerLayout out;
  if (!fits(window_w, window_h)) return out;
  const std::uint32_t word = encode_word(payload);
  // Painting the majority colour first leaves at most 16 cells, hence at most 16 runs, to add.
  const bool background_white = std::popcount(word) > kCells / 2;
  const PixelPoint origin = marker_origin_in_gl(window_w, window_h, corner);
  out.rects[0] = MarkerRect{origin.x, origin.y, kMarkerWidth, kMarkerHeight, background_white};
  out.count = 1;

  // Runs of the minority colour per row; identical runs in the rows below merge into one rect.
  bool consumed[kRows][kColumns] = {};
  for (int row = 0; row < kRows; ++row) {
    for (int c0 = 0; c0 < kColumns;) {
      if (cell_white(word, c0, row) == background_white || consumed[row][c0]) {
        ++c0;
        continue;
      }
      int c1 = c0;
      while (c1 < kColumns && cell_white(word, c1, row) != background_white) ++c1;
      auto same_run = [&](int r) {
        for (int c = c0; c < c1; ++c) {
          if (cell_white(word, c, r) == background_white) return false;
        }
        const bool open_left = c0 == 0 || cell_white(word, c0 - 1, r) == background_white;
        const bool open_right = c1 == kColumns || cell_white(word, c1, r) == background_white;
        return open_left && open_right;
      };
      int last_row = row;
      while (last_row + 1 < kRows && same_run(last_row + 1)) ++last_row;
      for (int r = row; r <= last_row; ++r) {
        for (int c = c0; c < c1; ++c) consumed[r][c] = true;
      }
      // Rows count down from the top; GL y counts up from the bottom.
      out.rects[out.count++] = MarkerRect{origin.x + c0 * kCellPx,
                                          origin.y + (kRows - 1 - last_row) * kCellPx,
                                          (c1 - c0) * kCellPx, (last_row - row + 1) * kCellPx,
                                          !background_white};
      c0 = c1;
    }
  }
  return out;
}

std::uint32_t layout_word(const MarkerLayout& marker, int window_w, int window_h, Corner corner) {
  const PixelPoint origin = marker_origin_in_gl(window_w, window_h, corner);
  std::uint32_t word = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    // Centre of the cell in GL coordinates; the last clear covering it decides its colour.
    const int x = origin.x + cell_column(cell) * kCellPx + kCellPx / 2;
    const int y = origin.y + (kRows - 1 - cell_row(cell)) * kCellPx + kCellPx / 2;
    bool white = false;
    for (int i = 0; i < marker.count; ++i) {
      const MarkerRect& r = marker.rects[i];
      if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h) white = r.white;
    }
    if (white) word |= 1u << (31 - cell);
  }
  return word;
}

}  // namespace pictor::tag
