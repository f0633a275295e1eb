#include "tag/marker_layout.h"

#include <bit>
#include <string>

#include "core/error.h"

namespace pictor::tag {

namespace {

bool is_left(Corner c) { return c == Corner::bottom_left || c == Corner::top_left; }
bool is_top(Corner c) { return c == Corner::top_left || c == Corner::top_right; }

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
  bool minority[kRows][kColumns + 1] = {};  // one spare column ends every run
  for (int cell = 0; cell < kCells; ++cell) {
    minority[cell_row(cell)][cell_column(cell)] = (((word >> (31 - cell)) & 1u) != 0) != background_white;
  }
  for (int row = 0; row < kRows; ++row) {
    for (int c0 = 0; c0 < kColumns;) {
      if (!minority[row][c0]) {
        ++c0;
        continue;
      }
      int c1 = c0;
      while (minority[row][c1]) ++c1;
      auto same_run = [&](int r) {
        for (int c = c0; c < c1; ++c) {
          if (!minority[r][c]) return false;
        }
        return (c0 == 0 || !minority[r][c0 - 1]) && !minority[r][c1];
      };
      int last_row = row;
      while (last_row + 1 < kRows && same_run(last_row + 1)) ++last_row;
      // Taken: clear the merged cells so the rows below do not emit them again.
      for (int r = row + 1; r <= last_row; ++r) {
        for (int c = c0; c < c1; ++c) minority[r][c] = false;
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
  // Paint the clears in order into a cell grid; a cell takes the colour of the last clear that
  // covers its centre, as in the framebuffer.
  bool white[kColumns][kRows] = {};
  for (int i = 0; i < marker.count; ++i) {
    const MarkerRect& r = marker.rects[i];
    for (int column = 0; column < kColumns; ++column) {
      const int x = origin.x + column * kCellPx + kCellPx / 2;
      if (x < r.x || x >= r.x + r.w) continue;
      for (int row = 0; row < kRows; ++row) {
        const int y = origin.y + (kRows - 1 - row) * kCellPx + kCellPx / 2;
        if (y >= r.y && y < r.y + r.h) white[column][row] = r.white;
      }
    }
  }
  std::uint32_t word = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    if (white[cell_column(cell)][cell_row(cell)]) word |= 1u << (31 - cell);
  }
  return word;
}

}  // namespace pictor::tag
