// Reproduces the choice of the marker's check polynomial and whitening (docs/marker.md):
// 1. every 12-bit CRC polynomial with Hamming distance >= 6 on the 32-cell word, ranked by its
//    number of undetected 6-cell errors and of row tears between consecutive frames that form
//    a valid word (ties: smallest value first); 2. the check part of the whitening that makes no structured pattern valid
//    and the fewest unions of two cell-aligned rectangles.
// Usage: marker_code_search   (prints the ten best polynomials, then the whitening)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <vector>

#include "tag/marker_code.h"
#include "tag/marker_layout.h"

namespace {

using namespace pictor::tag;

std::uint32_t crc(std::uint32_t data, std::uint32_t poly) {
  std::uint32_t r = 0;
  for (int i = kDataBits - 1; i >= 0; --i) {
    const std::uint32_t top = (r >> (kCheckBits - 1)) & 1u;
    r = (r << 1) & kCheckMask;
    if (((data >> i) & 1u) != top) r ^= poly;
  }
  return r;
}
std::uint32_t codeword(std::uint32_t data, std::uint32_t poly) {
  return (data << kCheckBits) | crc(data, poly);
}
std::uint32_t cell_bit(int column, int row) { return 1u << (31 - (column * kRows + row)); }

struct Candidate {
  std::uint32_t poly;
  long weight6;
  int tears;
};

}  // namespace

int main() {
  std::uint32_t top_rows[kRows] = {};  // top_rows[s]: the rows above a tear after row s
  for (int split = 1; split < kRows; ++split)
    for (int r = 0; r < split; ++r)
      for (int c = 0; c < kColumns; ++c) top_rows[split] |= cell_bit(c, r);
  // Data differences between consecutive frames: frame + 1..3, tag + 0..3.
  std::set<std::uint32_t> deltas;
  for (std::uint32_t dt = 0; dt <= 3; ++dt)
    for (std::uint32_t t = 0; t <= kTagMask; ++t)
      for (std::uint32_t f = 0; f <= kFrameMask; ++f)
        for (std::uint32_t df = 1; df <= 3; ++df)
          deltas.insert(((t ^ ((t + dt) & kTagMask)) << kFrameBits) | (f ^ ((f + df) & kFrameMask)));

  std::vector<Candidate> found;
  for (std::uint32_t poly = 1; poly <= kCheckMask; poly += 2) {
    std::uint32_t syndrome[32];
    for (int i = 0; i < 32; ++i) {
      const std::uint32_t e = 1u << i;
      syndrome[i] = crc(e >> kCheckBits, poly) ^ (e & kCheckMask);
    }
    // Hamming distance >= 6: no nonzero error of weight <= 5 has a zero syndrome.
    bool ok = true;
    long w6 = 0;
    for (int a = 0; a < 32 && ok; ++a) {
      ok = syndrome[a] != 0;
      for (int b = a + 1; b < 32 && ok; ++b) {
        const std::uint32_t s2 = syndrome[a] ^ syndrome[b];
        ok = s2 != 0;
        for (int c = b + 1; c < 32 && ok; ++c) {
          const std::uint32_t s3 = s2 ^ syndrome[c];
          ok = s3 != 0;
          for (int d = c + 1; d < 32 && ok; ++d) {
            const std::uint32_t s4 = s3 ^ syndrome[d];
            ok = s4 != 0;
            for (int e = d + 1; e < 32 && ok; ++e) {
              const std::uint32_t s5 = s4 ^ syndrome[e];
              ok = s5 != 0;
              for (int f = e + 1; f < 32; ++f) w6 += (s5 == syndrome[f]);
            }
          }
        }
      }
    }
    if (!ok) continue;
    int tears = 0;
    for (std::uint32_t d : deltas) {
      const std::uint32_t word = codeword(d, poly);
      for (int split = 1; split < kRows; ++split) {
        const std::uint32_t part = word & top_rows[split];
        if (part != 0 && part != word && codeword(part >> kCheckBits, poly) == part) ++tears;
      }
    }
    found.push_back({poly, w6, tears});
  }
  std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
    if (a.tears != b.tears) return a.tears < b.tears;
    if (a.weight6 != b.weight6) return a.weight6 < b.weight6;
    return a.poly < b.poly;  // ties: the smallest polynomial
  });
  std::printf("%zu polynomials with Hamming distance >= 6; best:\n", found.size());
  for (std::size_t i = 0; i < std::min<std::size_t>(10, found.size()); ++i) {
    std::printf("  0x%03X  undetected 6-cell errors %ld  valid tears %d\n", found[i].poly,
                found[i].weight6, found[i].tears);
  }

  // Whitening: structured patterns must all miss its syndrome.
  const std::uint32_t poly = 0x2A3;
  auto syndrome_of = [&](std::uint32_t w) { return crc(w >> kCheckBits, poly) ^ (w & kCheckMask); };
  std::vector<std::uint32_t> rects;
  std::set<std::uint32_t> structured{0u, ~0u};
  for (int c0 = 0; c0 < kColumns; ++c0)
    for (int c1 = c0 + 1; c1 <= kColumns; ++c1)
      for (int r0 = 0; r0 < kRows; ++r0)
        for (int r1 = r0 + 1; r1 <= kRows; ++r1) {
          std::uint32_t m = 0;
          for (int c = c0; c < c1; ++c)
            for (int r = r0; r < r1; ++r) m |= cell_bit(c, r);
          rects.push_back(m);
          structured.insert(m);
          structured.insert(~m);
        }
  for (std::uint32_t rows = 0; rows < 16; ++rows)
    for (std::uint32_t cols = 0; cols < 256; ++cols) {
      std::uint32_t m = 0;
      for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kColumns; ++c)
          if (((rows >> r) ^ (cols >> c)) & 1u) m |= cell_bit(c, r);
      structured.insert(m);
    }
  std::vector<bool> taken(kCheckMask + 1, false);
  for (std::uint32_t m : structured) taken[syndrome_of(m)] = true;
  std::set<std::uint32_t> two;
  for (std::uint32_t a : rects)
    for (std::uint32_t b : rects) {
      two.insert(a | b);
      two.insert(~(a | b));
    }
  std::vector<int> hits(kCheckMask + 1, 0);
  for (std::uint32_t m : two) ++hits[syndrome_of(m)];
  int best = -1;
  for (int s = 0; s <= static_cast<int>(kCheckMask); ++s)
    if (!taken[static_cast<std::size_t>(s)] && (best < 0 || hits[static_cast<std::size_t>(s)] < hits[static_cast<std::size_t>(best)])) best = s;
  const std::uint32_t data_part = 0x6A5C9;  // arbitrary; balances the colours of low tags
  const std::uint32_t whitening = (data_part << kCheckBits) | (crc(data_part, poly) ^ static_cast<std::uint32_t>(best));
  std::printf("%zu structured patterns; syndrome 0x%03X hit by %d of %zu two-rectangle patterns\n",
              structured.size(), best, hits[static_cast<std::size_t>(best)], two.size());
  std::printf("whitening 0x%08X (in use: 0x%08X)\n", whitening, kMarkerWhitening);
  return whitening == kMarkerWhitening ? 0 : 1;
}
