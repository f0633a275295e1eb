// Measures how far JPEG round trips push the marker's cells towards the decision thresholds:
// per quality, the darkest light cell, the lightest dark cell and the widest in-cell luma range
// over every window offset mod 8 and every background, for libjpeg-turbo's accurate IDCT (its
// default) and its fast IDCT on decompression. Prints the table in docs/marker.md.
// Usage: marker_margin_study [payloads per offset and background, default 4]
#include <turbojpeg.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "marker_image.h"
#include "tag/marker_decode.h"

using namespace pictor::tag;
using namespace pictor::tag::testing;

int main(int argc, char** argv) {
  const int payloads = argc > 1 ? std::atoi(argv[1]) : 4;
  std::mt19937 rng(7);
  std::printf("%-8s %-9s %-10s %12s %12s %10s %8s %8s\n", "quality", "idct", "background",
              "min light", "max dark", "max range", "reads", "ok");
  for (int flags : {0, TJFLAG_FASTDCT}) {
    for (int quality : {10, 15, 30, 50, 90}) {
      for (Background bg : kAllBackgrounds) {
        int min_light = 255, max_dark = 0, max_range = 0, reads = 0, ok = 0;
        for (int oy = 0; oy < 8; ++oy) {
          for (int ox = 0; ox < 8; ++ox) {
            for (int k = 0; k < payloads; ++k) {
              const WindowRect win{24 + ox, 16 + oy, 160, 96};
              Canvas c = make_background(208, 128, PixelFormat::rgb, bg, static_cast<std::uint32_t>(rng()));
              const MarkerPayload p = make_payload(rng(), rng());
              paint_layout(c, win, layout(p, win.width, win.height, Corner::bottom_left));
              const Canvas j = jpeg_round_trip(c, quality, flags);
              const MarkerReading r = read_marker(j.view(), win, Corner::bottom_left);
              const std::uint32_t truth = encode_word(p);
              for (int cell = 0; cell < kCells; ++cell) {
                const bool white = (truth >> (31 - cell)) & 1u;
                if (white) min_light = std::min<int>(min_light, r.mean_luma[cell]);
                else max_dark = std::max<int>(max_dark, r.mean_luma[cell]);
                max_range = std::max<int>(max_range, r.luma_range[cell]);
              }
              ++reads;
              if (r.payload && *r.payload == p) ++ok;
              if (r.payload && !(*r.payload == p)) std::printf("WRONG PAYLOAD\n");
            }
          }
        }
        std::printf("%-8d %-9s %-10s %12d %12d %10d %8d %8d\n", quality,
                    flags ? "fast" : "accurate", background_name(bg), min_light, max_dark, max_range,
                    reads, ok);
      }
    }
  }
}
