// The stream adapter's session files (stream_frames.csv, stream_received.csv) read by the session
// loader like every other session CSV: from any SessionFileReader, schemas checked, rows cut off
// at the end noted, bad fields named by file and line.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analysis/rtt_load.h"
#include "analysis/stream_stages.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

using Files = std::map<std::string, std::string>;

RttTimeline load(const Files& files) {
  return load_rtt_timeline(
      [&](const std::string& name) -> std::optional<std::string> {
        const auto f = files.find(name);
        return f == files.end() ? std::nullopt : std::optional<std::string>(f->second);
      },
      "session", /*require_client=*/false);
}

const std::string kFrames =
    "pts_ns,captured_ns,encode_in_ns,encode_out_ns,bytes,keyframe,marker_tag,marker_frame\n"
    "71531200,1000,1100,1500,1480,1,,\n"
    "124985302,2000,2100,2600,30,0,5,13\n";
const std::string kReceived =
    "pts_ns,decode_in_ns,decoded_ns,bytes,marker_tag,marker_frame\n"
    "71531200,3000,3300,1480,,\n"
    "124985302,,4300,30,5,13\n";

TEST(StreamLoad, BothFilesComeThroughTheSessionReader) {
  const RttTimeline t = load({{"stream_frames.csv", kFrames}, {"stream_received.csv", kReceived}});
  EXPECT_TRUE(t.have_stream);
  ASSERT_EQ(t.stream_frames.size(), 2u);
  EXPECT_EQ(t.stream_frames[0].captured_ns, 1000);
  EXPECT_EQ(t.stream_frames[0].encode_out_ns, 1500);
  EXPECT_TRUE(t.stream_frames[0].keyframe);
  EXPECT_FALSE(t.stream_frames[0].marker_tag.has_value());
  EXPECT_EQ(t.stream_frames[1].marker_tag, 5u);
  EXPECT_EQ(t.stream_frames[1].marker_frame, 13u);
  ASSERT_EQ(t.stream_received.size(), 2u);
  EXPECT_EQ(t.stream_received[0].decode_in_ns, 3000);
  EXPECT_FALSE(t.stream_received[1].decode_in_ns.has_value());
  EXPECT_EQ(t.stream_received[1].decoded_ns, 4300);
}

TEST(StreamLoad, WithoutTheFilesTheSessionIsNoStream) {
  const RttTimeline t = load({});
  EXPECT_FALSE(t.have_stream);
  EXPECT_TRUE(t.stream_frames.empty());
  EXPECT_TRUE(t.stream_received.empty());
}

TEST(StreamLoad, SchemasCutRowsAndBadFieldsAsForEveryFile) {
  // A newer schema declared in run.json is refused, as for frames.csv.
  EXPECT_NE(test::usage_error_of([] {
              load({{"stream_frames.csv", kFrames}, {"run.json", R"({"files": {"stream_frames.csv": {"schema": 2}}})"}});
            }).find("session/stream_frames.csv: stream_frames schema 2 is newer than this Pictor reads (1)"),
            std::string::npos);
  // A row cut off by a killed writer is noted, not read.
  const RttTimeline cut = load({{"stream_received.csv", kReceived + "99,5000"}});
  EXPECT_EQ(cut.stream_received.size(), 2u);
  EXPECT_FALSE(cut.notes.empty());
  EXPECT_NE(test::usage_error_of([] {
              load({{"stream_frames.csv", kFrames + "1,2,3,soon,5,0,,\n"}});
            }).find("session/stream_frames.csv:4: column 'encode_out_ns'"),
            std::string::npos);
}

}  // namespace
}  // namespace pictor::analysis
