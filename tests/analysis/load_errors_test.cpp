// Every malformed input gives a UsageError whose one line names the file, the line and the cause.
#include <gtest/gtest.h>

#include <filesystem>

#include "analysis/load.h"
#include "analysis/summary.h"
#include "core/files.h"
#include "core/text.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

using test::usage_error_of;
using namespace std::string_literals;

class LoadErrors : public ::testing::Test {
 protected:
  // The error message for `content` written to a file, with the file's path replaced by "F".
  std::string error_for(const std::string& content) {
    const std::string path = dir_.write("in.csv", content);
    std::string msg = usage_error_of([&] { load_frames(path); });
    if (msg.rfind(path, 0) == 0) msg = "F" + msg.substr(path.size());
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "more than one line: " << msg;
    return msg;
  }
  test::TempDir dir_;
};

TEST_F(LoadErrors, MissingFile) {
  const std::string path = dir_.path() + "/nope.csv";
  EXPECT_EQ(usage_error_of([&] { load_frames(path); }),
            path + ": cannot open: No such file or directory");
}

TEST_F(LoadErrors, SessionDirectoryWithoutFramesCsv) {
  const std::string msg = usage_error_of([&] { load_frames(dir_.path()); });
  EXPECT_EQ(msg, dir_.path() + "/frames.csv: cannot open: No such file or directory");
}

TEST_F(LoadErrors, EmptyAndBlankFiles) {
  EXPECT_EQ(error_for(""), "F:1: file is empty");
  EXPECT_EQ(error_for("\n  \r\n"), "F:1: file is empty");
}

TEST_F(LoadErrors, UnknownFormat) {
  EXPECT_EQ(error_for("name,score\nalice,3\n"),
            "F:1: unknown format: not a Pictor frames.csv, a MangoHud CSV log or a PresentMon CSV");
}

TEST_F(LoadErrors, PictorMissingColumn) {
  EXPECT_EQ(error_for("# pictor frames schema 1\nframe,ctx,frame_ms\n0,1,\n"),
            "F:2: missing required column 'swap_ns'");
}

TEST_F(LoadErrors, PictorNonNumericValues) {
  EXPECT_EQ(error_for("# pictor frames schema 1\nframe,ctx,swap_ns\n0,1,100\n1,1,1e9\n"),
            "F:4: column 'swap_ns': '1e9' is not an integer");
  EXPECT_EQ(error_for("frame,ctx,swap_ns,gpu_ms\n0,1,100,\n1,1,200,fast\n"),
            "F:3: column 'gpu_ms': 'fast' is not a number");
}

TEST_F(LoadErrors, PictorTruncatedRows) {
  // A short row with a line end, at the end or in the middle: the file is malformed.
  EXPECT_EQ(error_for("frame,ctx,swap_ns\n0,1,100\n1,1\n"),
            "F:3: row has 2 fields, header (line 1) has 3");
  EXPECT_EQ(error_for("frame,ctx,swap_ns\n0,1,100\n1,1\n2,1,300\n"),
            "F:3: row has 2 fields, header (line 1) has 3");
}

TEST_F(LoadErrors, PictorRowCutByACrashIsDroppedWithANote) {
  const std::string path = dir_.write("cut.csv", "frame,ctx,swap_ns\n0,1,0\n1,1,10000000\n2,1");
  const FrameSeries s = load_frames(path);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{10}));
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("line 4 is cut short (2 of 3 fields, no line end)"), std::string::npos);
  EXPECT_EQ(summarize_frames(s)["input_notes"].size(), 1u);
}

TEST_F(LoadErrors, PictorOrderAndSchema) {
  EXPECT_EQ(error_for("frame,ctx,swap_ns\n0,1,100\n2,1,200\n1,1,300\n"),
            "F:4: frame 1 follows frame 2 (line 3) of the same context: rows out of order");
  EXPECT_EQ(error_for("frame,ctx,swap_ns\n0,1,500\n1,1,400\n"),
            "F:3: swap_ns 400 is earlier than 500 of frame 0 (line 2)");
  EXPECT_EQ(error_for("frame,ctx,swap_ns\n0,1,-5\n"), "F:2: column 'swap_ns': negative value -5");
  EXPECT_EQ(error_for("# pictor frames schema 2\nframe,ctx,swap_ns\n"),
            "F:1: frames.csv schema 2 is newer than this Pictor reads (1)");
}

TEST_F(LoadErrors, MangoHudMalformed) {
  EXPECT_EQ(error_for("os,cpu,gpu,ram,kernel,driver,cpuscheduler\nDebian,x,y,1,2,3,\n"),
            "F:1: MangoHud log has no 'fps,frametime,...' header row");
  EXPECT_EQ(error_for("fps,cpu_load,elapsed\n60,10,0\n"), "F:1: missing required column 'frametime'");
  EXPECT_EQ(error_for("os,cpu,gpu\na,b,c\nfps,frametime,elapsed\n60,16.6,0\nsixty,16.6,1\n"),
            "F:5: column 'fps': 'sixty' is not a number");
  EXPECT_EQ(error_for("fps,frametime,elapsed\n0,16.6,0\n0,16.6,1\n"),
            "F:1: cannot tell the unit of 'frametime': no row has both fps and frametime above 0");
  EXPECT_EQ(error_for("fps,frametime,elapsed\n60,16.6,-1\n"), "F:2: column 'elapsed': negative value -1");
  EXPECT_EQ(error_for("fps,frametime,elapsed\n60,16.6,100\n60,16.6,50\n"),
            "F:3: elapsed 50 is earlier than 100 on line 2");
  EXPECT_EQ(error_for("fps,frametime,elapsed\n60,16.6,0\n60,16.6\n60,16.6,3\n"),
            "F:3: row has 2 fields, header (line 1) has 3");
}

TEST_F(LoadErrors, PresentMonMalformed) {
  EXPECT_EQ(error_for("Application,ProcessID,TimeInSeconds\na.exe,1,0.5\n"),
            "F:1: missing required column 'MsBetweenPresents' (or 'FrameTime')");
  EXPECT_EQ(error_for("Application,ProcessID,MsBetweenPresents\r\na.exe,1,16.6\r\na.exe,1,x\r\n"),
            "F:3: column 'MsBetweenPresents': 'x' is not a number");
  EXPECT_EQ(error_for("Application,ProcessID,MsBetweenPresents\na.exe,1,-3\n"),
            "F:2: column 'MsBetweenPresents': negative value -3");
  EXPECT_EQ(error_for("Application,ProcessID,MsBetweenPresents\n\"a.exe,1,16\n"),
            "F:2: quoted field is not closed before the end of the file");
}

// Issue 14, item 9: what an importer was given that no tool writes gets a precise line.
TEST_F(LoadErrors, NegativeTimesAreNamedByFileAndLine) {
  // A negative GPU time used to be averaged in (mean -0.0035).
  EXPECT_EQ(error_for("frame,ctx,swap_ns,gpu_ms\n0,1,100,0.5\n1,1,200,-0.0035\n"),
            "F:3: column 'gpu_ms': negative value -0.0035");
  EXPECT_EQ(error_for("frame,ctx,swap_ns\n-1,1,100\n"), "F:2: column 'frame': negative value -1");
  // A negative MangoHud frame time used to be dropped as "frametime 0 (nothing measured yet)".
  EXPECT_EQ(error_for("fps,frametime,elapsed\n60,16.6,0\n60,-16.6,16600000\n"),
            "F:3: column 'frametime': negative value -16.6");
  EXPECT_EQ(error_for("fps,frametime,elapsed\n-60,16.6,0\n"), "F:2: column 'fps': negative value -60");
  EXPECT_EQ(error_for("Application,ProcessID,MsBetweenPresents,MsGPUBusy\na.exe,1,16,2\na.exe,1,16,-2\n"),
            "F:3: column 'MsGPUBusy': negative value -2");
  EXPECT_EQ(error_for("Application,ProcessID,MsBetweenPresents,TimeInSeconds\na.exe,1,16,-0.5\n"),
            "F:2: column 'TimeInSeconds': negative value -0.5");
  EXPECT_EQ(error_for("Application,ProcessID,MsBetweenPresents,TimeInSeconds\na.exe,1,16,1e300\n"),
            "F:2: column 'TimeInSeconds': 1e300 is out of range (above 1e12 ms, 31 years)");
}

TEST_F(LoadErrors, FrameTimeZeroIsStillLeftOutWithItsNote) {
  const FrameSeries s =
      load_frames(dir_.write("m.csv", "fps,frametime,elapsed\n0,0,0\n60,16.6,16600000\n60,16.6,33200000\n"));
  EXPECT_EQ(s.frame_ms.size(), 2u);
  ASSERT_FALSE(s.notes.empty());
  EXPECT_EQ(s.notes[0], "1 row(s) with frametime 0 (nothing measured yet) dropped");
}

TEST_F(LoadErrors, DuplicateHeaderColumnIsNamed) {
  EXPECT_EQ(error_for("frame,ctx,swap_ns,swap_ns\n0,1,100,200\n"),
            "F:1: column 'swap_ns' appears twice in the header (columns 3 and 4)");
  EXPECT_EQ(error_for("os,cpu\na,b\nfps,frametime,elapsed,FPS\n60,16.6,0,60\n"),
            "F:3: column 'FPS' appears twice in the header (columns 1 and 4)");
}

TEST_F(LoadErrors, NulAndControlBytesInAFieldAreEscaped) {
  // The NUL used to cut the message: "column 'frame': '" and nothing more.
  EXPECT_EQ(error_for("frame,ctx,swap_ns\n0,1,100\n\0\x1b[2J,1,200\n"s),
            "F:3: column 'frame': '\\x00\\x1b[2J' is not an integer");
}

TEST_F(LoadErrors, DevicesDirectoriesAndHugeFilesAreRefusedByName) {
  // /dev/zero never ends: reading it used to end in std::bad_alloc.
  EXPECT_EQ(usage_error_of([] { load_frames("/dev/zero"); }),
            "/dev/zero: is a character device, not a file Pictor can read");
  // A session directory whose frames.csv is a directory used to be "file is empty".
  std::filesystem::create_directories(dir_.path() + "/session/frames.csv");
  EXPECT_EQ(usage_error_of([&] { load_frames(dir_.path() + "/session"); }),
            dir_.path() + "/session/frames.csv: is a directory, not a file Pictor can read");
  // Above the size limit, before anything is read (a sparse file: no disk is used).
  const std::string big = dir_.path() + "/big.csv";
  std::filesystem::resize_file(dir_.write("big.csv", "frame,ctx,swap_ns\n"), files::kMaxReadBytes + 1);
  EXPECT_EQ(usage_error_of([&] { load_frames(big); }),
            big + ": 1073741825 bytes is more than an input file may hold (1.0 GiB)");
}

}  // namespace
}  // namespace pictor::analysis
