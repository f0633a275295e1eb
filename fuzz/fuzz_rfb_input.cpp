// Fuzz target: the proxy hook's RFB client-to-server parser on any byte stream. The parser sees the
// stream in the pieces read() returns; the first byte chooses how the rest is cut. Properties: the
// same inputs, problem and counts whatever the cut (the parser is a pure stream function), buttons
// 1..8 only, and no read past the buffer it is given (ASan).
#include <vector>

#include "fuzz_check.h"
#include "proxyhook/rfb_input_parser.h"

namespace {

using pictor::proxyhook::RfbInput;
using pictor::proxyhook::RfbInputParser;

struct Seen {
  std::vector<RfbInput> inputs;
};

void collect(void* context, const RfbInput& input) {
  FUZZ_CHECK(input.kind == pictor::proxyhook::InputKind::key ||
             (input.kind == pictor::proxyhook::InputKind::button && input.detail >= 1 && input.detail <= 8));
  static_cast<Seen*>(context)->inputs.push_back(input);
}

bool same(const RfbInput& a, const RfbInput& b) {
  return a.kind == b.kind && a.detail == b.detail && a.down == b.down && a.x == b.x && a.y == b.y;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned cut = data[0];
  ++data;
  --size;

  RfbInputParser whole;
  Seen a;
  whole.feed(data, size, collect, &a);

  // Pieces of 1..16 bytes, each copied to a buffer of exactly its size so ASan sees an overread.
  RfbInputParser pieces;
  Seen b;
  std::size_t pos = 0;
  for (unsigned i = 0; pos < size; ++i) {
    const std::size_t n = std::min<std::size_t>(size - pos, 1 + ((cut >> (i % 5)) + i) % 16);
    const std::vector<std::uint8_t> piece(data + pos, data + pos + n);
    pieces.feed(piece.data(), piece.size(), collect, &b);
    pos += n;
  }
  FUZZ_CHECK(a.inputs.size() == b.inputs.size());
  for (std::size_t i = 0; i < a.inputs.size(); ++i) FUZZ_CHECK(same(a.inputs[i], b.inputs[i]));
  FUZZ_CHECK(whole.problem() == pieces.problem());
  FUZZ_CHECK(whole.problem_message() == pieces.problem_message());
  FUZZ_CHECK(whole.messages() == pieces.messages());
  FUZZ_CHECK(whole.motion_events() == pieces.motion_events());
  return 0;
}
