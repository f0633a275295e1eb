// The RFB client-stream parser: handshake skipping, every message length, split and merged reads,
// button changes vs motion, and stopping once on what it cannot parse.
#include "proxyhook/rfb_input_parser.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pictor::proxyhook {
namespace {

using Bytes = std::vector<std::uint8_t>;

void append(Bytes& b, std::initializer_list<int> v) {
  for (int x : v) b.push_back(static_cast<std::uint8_t>(x));
}
void append_str(Bytes& b, const std::string& s) { b.insert(b.end(), s.begin(), s.end()); }

Bytes handshake_38() {
  Bytes b;
  append_str(b, "RFB 003.008\n");
  append(b, {1});  // security type None
  append(b, {1});  // ClientInit: shared
  return b;
}
Bytes key(std::uint32_t keysym, bool down) {
  Bytes b;
  append(b, {4, down ? 1 : 0, 0, 0, int(keysym >> 24), int(keysym >> 16 & 255), int(keysym >> 8 & 255),
             int(keysym & 255)});
  return b;
}
Bytes pointer(int mask, int x, int y) {
  Bytes b;
  append(b, {5, mask, x >> 8, x & 255, y >> 8, y & 255});
  return b;
}
Bytes set_encodings(int n) {
  Bytes b;
  append(b, {2, 0, 0, n});
  for (int i = 0; i < n; ++i) append(b, {0xff, 0xff, 0xff, 0x21 + i});
  return b;
}
Bytes set_pixel_format() {
  Bytes b(20, 0);
  b[0] = 0;
  return b;
}
Bytes update_request() {
  Bytes b;
  append(b, {3, 1, 0, 0, 0, 0, 2, 128, 1, 104});
  return b;
}
Bytes cut_text(const std::string& s) {
  Bytes b;
  append(b, {6, 0, 0, 0, 0, 0, 0, static_cast<int>(s.size())});
  append_str(b, s);
  return b;
}
Bytes fence(int len) {
  Bytes b;
  append(b, {248, 0, 0, 0, 0, 0, 0, 1, len});
  for (int i = 0; i < len; ++i) b.push_back(0xaa);
  return b;
}
Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

struct Collector {
  std::vector<RfbInput> inputs;
  static void sink(void* self, const RfbInput& in) { static_cast<Collector*>(self)->inputs.push_back(in); }
};

// Feeds `stream` in chunks of `chunk` bytes (0: all at once).
std::vector<RfbInput> parse(const Bytes& stream, std::size_t chunk, RfbInputParser* out = nullptr) {
  RfbInputParser p;
  Collector c;
  if (chunk == 0) chunk = stream.size();
  for (std::size_t i = 0; i < stream.size(); i += chunk)
    p.feed(stream.data() + i, std::min(chunk, stream.size() - i), Collector::sink, &c);
  if (out) *out = p;
  return c.inputs;
}

const Bytes kSession = cat({handshake_38(), set_pixel_format(), set_encodings(5), update_request(),
                            key(0x61, true), pointer(0, 10, 20), pointer(0, 11, 21), key(0x61, false),
                            cut_text("hello"), fence(4), pointer(1, 300, 200), pointer(5, 301, 200),
                            pointer(0, 302, 201), update_request()});

TEST(RfbInputParser, SkipsHandshakeAndReportsKeysAndButtonChanges) {
  RfbInputParser p;
  const auto in = parse(kSession, 0, &p);
  ASSERT_EQ(in.size(), 6u);
  EXPECT_EQ(in[0].kind, InputKind::key);
  EXPECT_EQ(in[0].detail, 0x61u);
  EXPECT_TRUE(in[0].down);
  EXPECT_FALSE(in[1].down);
  EXPECT_EQ(in[2].kind, InputKind::button);
  EXPECT_EQ(in[2].detail, 1u);
  EXPECT_TRUE(in[2].down);
  EXPECT_EQ(in[2].x, 300);
  EXPECT_EQ(in[2].y, 200);
  EXPECT_EQ(in[3].detail, 3u);  // mask 1 -> 5: button 3 pressed, button 1 still down
  EXPECT_TRUE(in[3].down);
  EXPECT_EQ(in[4].detail, 1u);  // mask 5 -> 0: both released, lowest first
  EXPECT_FALSE(in[4].down);
  EXPECT_EQ(in[5].detail, 3u);
  EXPECT_EQ(p.motion_events(), 2u);
  EXPECT_EQ(p.problem(), ParseProblem::none);
  EXPECT_EQ(p.messages(), 13u);
}

TEST(RfbInputParser, SplitReadsGiveTheSameInputs) {
  const auto whole = parse(kSession, 0);
  for (std::size_t chunk : {1u, 2u, 3u, 7u, 13u}) {
    const auto split = parse(kSession, chunk);
    ASSERT_EQ(split.size(), whole.size()) << "chunk " << chunk;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(split[i].detail, whole[i].detail);
      EXPECT_EQ(split[i].down, whole[i].down);
    }
  }
}

TEST(RfbInputParser, Rfb33HasNoSecurityChoice) {
  Bytes b;
  append_str(b, "RFB 003.003\n");
  append(b, {1});  // ClientInit
  const auto in = parse(cat({b, key(0xff0d, true)}), 0);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].detail, 0xff0du);
}

TEST(RfbInputParser, VncAuthResponseIsSkipped) {
  Bytes b;
  append_str(b, "RFB 003.008\n");
  append(b, {2});
  b.insert(b.end(), 16, 0x55);
  append(b, {0});
  const auto in = parse(cat({b, key(0x20, true)}), 5);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].detail, 0x20u);
}

TEST(RfbInputParser, QemuExtendedKeyEventIsAKey) {
  Bytes q;
  append(q, {255, 0, 0, 1, 0, 0, 0, 0x62, 0, 0, 0, 48});
  const auto in = parse(cat({handshake_38(), q}), 0);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].kind, InputKind::key);
  EXPECT_EQ(in[0].detail, 0x62u);
  EXPECT_TRUE(in[0].down);
}

TEST(RfbInputParser, UnknownMessageStopsParsingOnce) {
  RfbInputParser p;
  Bytes bad;
  append(bad, {77, 1, 2, 3});
  const auto in = parse(cat({handshake_38(), key(1, true), bad, key(2, true)}), 0, &p);
  ASSERT_EQ(in.size(), 1u);  // nothing after the unknown message: its length is unknown
  EXPECT_EQ(p.problem(), ParseProblem::unknown_message);
  EXPECT_EQ(p.problem_message(), 77);
  Collector c;
  EXPECT_FALSE(p.feed(key(3, true).data(), 8, Collector::sink, &c));
  EXPECT_TRUE(c.inputs.empty());
}

TEST(RfbInputParser, NotRfbStops) {
  RfbInputParser p;
  Bytes http;
  append_str(http, "GET / HTTP/1.1\r\n");
  parse(http, 0, &p);
  EXPECT_EQ(p.problem(), ParseProblem::bad_version);
}

TEST(RfbInputParser, OtherSecurityTypeStops) {
  RfbInputParser p;
  Bytes b;
  append_str(b, "RFB 003.008\n");
  append(b, {19});  // VeNCrypt: a TLS stream follows
  parse(b, 0, &p);
  EXPECT_EQ(p.problem(), ParseProblem::unsupported_security);
}

}  // namespace
}  // namespace pictor::proxyhook
