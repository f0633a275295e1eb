// The stream adapter's pure pieces: option parsing, the input wire format, the probes' PTS
// bookkeeping.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "stream/input_wire.h"
#include "stream/pts_stamps.h"
#include "stream/stream_options.h"

namespace pictor::stream {
namespace {

TEST(StreamOptions, EmptyTextGivesTheDefaults) {
  const StreamOptions o = parse_stream_options("");
  EXPECT_EQ(o.bitrate_kbit, 8000);
  EXPECT_EQ(o.preset, "ultrafast");
  EXPECT_EQ(o.gop, 60);
  EXPECT_EQ(o.transport, Transport::udp);
  EXPECT_EQ(o.fps, 60);
  EXPECT_EQ(to_string(o), "bitrate=8000kbit,preset=ultrafast,gop=60,transport=udp,fps=60");
}

TEST(StreamOptions, EveryKeyParses) {
  const StreamOptions o = parse_stream_options("bitrate=2500kbit,preset=veryfast,gop=30,transport=tcp,fps=30");
  EXPECT_EQ(o.bitrate_kbit, 2500);
  EXPECT_EQ(o.preset, "veryfast");
  EXPECT_EQ(o.gop, 30);
  EXPECT_EQ(o.transport, Transport::tcp);
  EXPECT_EQ(o.fps, 30);
  EXPECT_EQ(parse_stream_options("bitrate=8mbit").bitrate_kbit, 8000);
  EXPECT_EQ(parse_stream_options("bitrate=1200").bitrate_kbit, 1200);
}

TEST(StreamOptions, CanonicalTextParsesBackToTheSameOptions) {
  const StreamOptions o = parse_stream_options("bitrate=1mbit,gop=10,transport=tcp");
  EXPECT_EQ(parse_stream_options(to_string(o)), o);
}

void expect_error(const std::string& text, const std::string& part) {
  try {
    parse_stream_options(text);
    ADD_FAILURE() << "accepted '" << text << "'";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// core/options.h's wording, like --net's and the drivers'.
TEST(StreamOptions, BadInputNamesThePartAndWhatIsAllowed) {
  expect_error("bitrate=fast", "--stream: bitrate=fast is not a rate in [100kbit, 200mbit]");
  expect_error("bitrate=50kbit", "--stream: bitrate=50kbit is not a rate in [100kbit, 200mbit]");
  expect_error("bitrate=300mbit", "[100kbit, 200mbit]");
  expect_error("bitrate=99", "[100kbit, 200mbit]");  // a bare number is kbit/s
  expect_error("bitrate=8furlongs", "bit, kbit, mbit or gbit");
  expect_error("preset=placebo", "--stream: preset=placebo is not one of ultrafast, superfast, veryfast, faster, fast, medium");
  expect_error("gop=0", "--stream: gop=0 is not an integer in [1, 600]");
  expect_error("gop=12x", "--stream: gop=12x is not an integer in [1, 600]");
  expect_error("fps=1000", "--stream: fps=1000 is not an integer in [1, 240]");
  expect_error("transport=rtsp", "rtsp is not built");
  expect_error("transport=quic", "--stream: transport=quic is not one of udp, tcp");
  expect_error("colour=blue", "--stream has no option 'colour' (options: bitrate, preset, gop, transport, fps)");
  expect_error("gop=30,gop=60", "--stream: option 'gop' given twice");
  expect_error("gop", "--stream: 'gop' is not NAME=VALUE");
  expect_error("gop=", "--stream: gop= is not an integer in [1, 600]");
}

TEST(StreamOptions, BitrateTakesAUnitOrABareNumberOfKbit) {
  EXPECT_EQ(parse_stream_options("bitrate=100").bitrate_kbit, 100);
  EXPECT_EQ(parse_stream_options("bitrate=200mbit").bitrate_kbit, 200'000);
  EXPECT_EQ(parse_stream_options("bitrate=1.5mbit").bitrate_kbit, 1500);
  EXPECT_EQ(parse_stream_options("bitrate=2500000bit").bitrate_kbit, 2500);
}

TEST(StreamOptions, DeclarationsListEveryKeyTheParserTakes) {
  const auto& set = stream_option_set();
  ASSERT_EQ(set.options.size(), 5u);
  for (const auto& o : set.options) {
    EXPECT_FALSE(o.help.empty()) << o.name;
    ASSERT_TRUE(o.default_text.has_value()) << o.name;
    // Each default, given as a value, is accepted and is the default.
    EXPECT_EQ(parse_stream_options(o.name + "=" + *o.default_text), parse_stream_options("")) << o.name;
  }
  const std::string help = options::help(set);
  EXPECT_NE(help.find("bitrate=RATE"), std::string::npos) << help;
  EXPECT_NE(help.find("a bare number is kbit/s"), std::string::npos) << help;
  EXPECT_NE(help.find("preset=ultrafast|superfast|veryfast|faster|fast|medium"), std::string::npos) << help;
}

TEST(InputWire, RoundTripsEveryKind) {
  for (const WireInput in : {WireInput{WireKind::key, true, 0xff51, -1, -1}, WireInput{WireKind::key, false, 0x61, 5, 7},
                             WireInput{WireKind::button, true, 3, 640, 360}, WireInput{WireKind::motion, false, 0, 1279, 719}}) {
    const auto back = decode(encode(in));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, in);
  }
}

TEST(InputWire, RejectsWhatIsNotAMessage) {
  WireMessage m = encode({WireKind::key, true, 0x61, -1, -1});
  WireMessage bad = m;
  bad[0] = 'Q';
  EXPECT_FALSE(decode(bad));
  bad = m;
  bad[1] = 9;
  EXPECT_FALSE(decode(bad));
  bad = m;
  bad[2] = 2;
  EXPECT_FALSE(decode(bad));
  bad = m;
  bad[3] = 1;
  EXPECT_FALSE(decode(bad));
  EXPECT_TRUE(decode(m));
}

TEST(PtsStamps, AFrameTakesBackItsOwnStamp) {
  PtsStamps<int> s;
  s.enter(100, 1);
  s.enter(200, 2);
  EXPECT_EQ(s.leave(100), 1);
  EXPECT_EQ(s.leave(200), 2);
  EXPECT_EQ(s.inside(), 0u);
  EXPECT_EQ(s.dropped(), 0u);
}

TEST(PtsStamps, FramesSkippedByTheElementAreCountedAsDropped) {
  PtsStamps<int> s;
  s.enter(1, 10);
  s.enter(2, 20);
  s.enter(3, 30);
  EXPECT_EQ(s.leave(3), 30);  // 1 and 2 never came out
  EXPECT_EQ(s.dropped(), 2u);
  EXPECT_EQ(s.inside(), 0u);
}

TEST(PtsStamps, UnknownFrameIsCountedAndChangesNothing) {
  PtsStamps<int> s;
  s.enter(1, 10);
  EXPECT_FALSE(s.leave(7).has_value());
  EXPECT_EQ(s.unknown(), 1u);
  EXPECT_EQ(s.leave(1), 10);
}

TEST(PtsStamps, EqualPtsLeaveInOrder) {
  // A source that stamps no PTS (all 0): stamps leave first in, first out.
  PtsStamps<int> s;
  s.enter(0, 1);
  s.enter(0, 2);
  EXPECT_EQ(s.leave(0), 1);
  EXPECT_EQ(s.leave(0), 2);
}

TEST(PtsStamps, LeaveOldestServesAnElementThatRewritesPts) {
  PtsStamps<int> s;
  s.enter(5, 50);
  s.enter(6, 60);
  EXPECT_EQ(s.leave_oldest(), 50);
  EXPECT_EQ(s.leave_oldest(), 60);
  EXPECT_FALSE(s.leave_oldest().has_value());
  EXPECT_EQ(s.unknown(), 1u);
}

TEST(PtsStamps, CapacityBoundsMemoryAndCountsWhatItDrops) {
  PtsStamps<int> s(2);
  s.enter(1, 1);
  s.enter(2, 2);
  s.enter(3, 3);
  EXPECT_EQ(s.inside(), 2u);
  EXPECT_EQ(s.dropped(), 1u);
  EXPECT_FALSE(s.leave(1).has_value());
  EXPECT_EQ(s.leave(2), 2);
}

}  // namespace
}  // namespace pictor::stream
