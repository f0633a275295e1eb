// CSV files start with their header row; the schema version is declared in the JSON beside them
// (run.json "files", hook.json "files", proxy.json "events_schema"), and readers still take the
// older form with a "# pictor NAME schema N" line first.
#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "analysis/load.h"
#include "analysis/rtt.h"
#include "analysis/rtt_load.h"
#include "analysis/session_schema.h"
#include "core/error.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

const std::string kFramesHeader = "frame,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n";
const std::string kFrameRows = "0,0,1000000000,,,0.5,,,\n1,0,1016000000,16,15,0.5,,,\n2,0,1033000000,17,16,0.5,,,\n";

TEST(SessionSchema, HeaderFirstAndOldSchemaLineBothRead) {
  test::TempDir current, old;
  current.write("frames.csv", kFramesHeader + kFrameRows);
  old.write("frames.csv", "# pictor frames schema 1\n" + kFramesHeader + kFrameRows);
  for (const auto* dir : {&current, &old}) {
    const FrameSeries s = load_frames(dir->path());
    EXPECT_EQ(s.source, "pictor");
    EXPECT_EQ(s.frame_ms, (std::vector<double>{16, 17}));
  }
}

TEST(SessionSchema, DeclaredInRunJsonThenHookJsonThenProxyJson) {
  test::TempDir dir;
  dir.write("frames.csv", kFramesHeader);
  dir.write("proxy_events.csv", "kind\n");
  EXPECT_FALSE(declared_schema(dir.path() + "/frames.csv"));
  dir.write("hook.json", R"({"schema": 1, "files": {"frames.csv": {"schema": 1}}})");
  EXPECT_EQ(declared_schema(dir.path() + "/frames.csv"), 1);
  dir.write("run.json", R"({"schema": 1, "files": {"frames.csv": {"schema": 3}}})");
  EXPECT_EQ(declared_schema(dir.path() + "/frames.csv"), 3);  // run.json wins
  EXPECT_FALSE(declared_schema(dir.path() + "/proxy_events.csv"));
  dir.write("proxy.json", R"({"schema": 1, "events_file": "proxy_events.csv", "events_schema": 2})");
  EXPECT_EQ(declared_schema(dir.path() + "/proxy_events.csv"), 2);
  dir.write("run.json", "{not json");  // a damaged run.json declares nothing
  EXPECT_EQ(declared_schema(dir.path() + "/frames.csv"), 1);
}

TEST(SessionSchema, NewerDeclaredSchemaIsRefusedWithOneLine) {
  test::TempDir dir;
  dir.write("frames.csv", kFramesHeader + kFrameRows);
  dir.write("run.json", R"({"files": {"frames.csv": {"schema": 9}}})");
  EXPECT_EQ(test::usage_error_of([&] { load_frames(dir.path()); }),
            dir.path() + "/frames.csv: frames.csv schema 9 is newer than this Pictor reads (1)");
  dir.write("client_inputs.csv", "tag,kind,detail,sent_ns,name\n");
  dir.write("client_frames.csv", "seen_ns,tag,frame,decode_us,capture_us\n");
  dir.write("run.json", R"({"files": {"client_inputs.csv": {"schema": 2}}})");
  EXPECT_EQ(test::usage_error_of([&] { load_rtt_timeline(dir.path()); }),
            dir.path() + "/client_inputs.csv: client_inputs schema 2 is newer than this Pictor reads (1)");
}

TEST(SessionSchema, RunJsonListsEveryKnownCsvWithItsSchema) {
  test::TempDir dir;
  dir.write("frames.csv", kFramesHeader);
  dir.write("frames.4242.csv", kFramesHeader);  // a second rendering process
  dir.write("inputs.csv", "tag\n");
  dir.write("notes.csv", "x\n");     // not Pictor's
  dir.write("frames.x1.csv", "x\n");  // not a process id
  const nlohmann::json files = session_files_json(dir.path());
  EXPECT_EQ(files, nlohmann::json::parse(R"({"frames.csv": {"schema": 1}, "frames.4242.csv": {"schema": 1},
                                             "inputs.csv": {"schema": 1}})"));
}

TEST(SessionSchema, FilesFromMemoryAreReadByTheDirectorysRules) {
  // load_rtt_timeline through a SessionFileReader (the fuzz target's way in) applies the same
  // rules as from a directory: schemas declared beside the files, required client files.
  std::map<std::string, std::string> files = {
      {"client_inputs.csv", "tag,kind,detail,sent_ns,name\n"},
      {"client_frames.csv", "seen_ns,tag,frame,decode_us,capture_us\n"},
      {"run.json", R"({"files": {"client_inputs.csv": {"schema": 2}}})"}};
  const SessionFileReader read = [&](const std::string& name) -> std::optional<std::string> {
    const auto f = files.find(name);
    return f == files.end() ? std::nullopt : std::optional<std::string>(f->second);
  };
  EXPECT_EQ(test::usage_error_of([&] { load_rtt_timeline(read, "S", true); }),
            "S/client_inputs.csv: client_inputs schema 2 is newer than this Pictor reads (1)");
  files.erase("run.json");
  files["frames.csv"] = kFramesHeader + kFrameRows;
  const RttTimeline t = load_rtt_timeline(read, "S", true);
  EXPECT_EQ(t.frames.size(), 3u);
  EXPECT_TRUE(t.have_frames);
  files.erase("client_frames.csv");
  EXPECT_EQ(test::usage_error_of([&] { load_rtt_timeline(read, "S", true); }),
            "S/client_frames.csv: not found (the session ran without a Pictor client)");
  EXPECT_TRUE(load_rtt_timeline(read, "S", false).seen.empty());
}

}  // namespace
}  // namespace pictor::analysis
