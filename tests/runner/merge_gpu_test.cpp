// merge_late_gpu: GPU results the interposer wrote after their frame's row go back into frames.csv,
// by (frame, ctx), through the one CSV reader; everything else stays as it was written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "runner/session.h"

namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("pictor-merge-gpu-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::string read(const fs::path& p) {
  std::ostringstream s;
  s << std::ifstream(p, std::ios::binary).rdbuf();
  return s.str();
}

}  // namespace

TEST(MergeLateGpu, FillsEmptyCellsByFrameAndContextOnly) {
  const fs::path dir = fresh_dir("fill");
  write(dir / "frames.csv",
        "frame,ctx,t_ns,gpu_ms\n"
        "1,7,100,\n"
        "2,7,200,0.5\n"
        "2,8,210,\n"
        "3,7,300,\n");
  // Columns in another order than frames.csv's; a result for a row that has one already is ignored.
  write(dir / "gpu.csv", "ctx,frame,gpu_ms\n7,1,1.25\n7,2,9.9\n8,2,2.5\n");
  EXPECT_EQ(pictor::runner::merge_late_gpu(dir.string()), 2u);
  EXPECT_EQ(read(dir / "frames.csv"),
            "frame,ctx,t_ns,gpu_ms\n"
            "1,7,100,1.25\n"
            "2,7,200,0.5\n"
            "2,8,210,2.5\n"
            "3,7,300,\n");
  fs::remove_all(dir);
}

TEST(MergeLateGpu, KeepsTheOldSchemaLineAndARowCutShort) {
  const fs::path dir = fresh_dir("cut");
  const std::string cut_last = "# pictor frames schema 1\nframe,ctx,t_ns,gpu_ms\n1,7,100,\n2,7,2";
  write(dir / "frames.csv", cut_last);
  write(dir / "gpu.csv", "frame,ctx,gpu_ms\n1,7,3\n2,7,4\n");
  EXPECT_EQ(pictor::runner::merge_late_gpu(dir.string()), 1u);
  EXPECT_EQ(read(dir / "frames.csv"), "# pictor frames schema 1\nframe,ctx,t_ns,gpu_ms\n1,7,100,3\n2,7,2");
  fs::remove_all(dir);
}

TEST(MergeLateGpu, LeavesFramesAloneWithoutUsableResults) {
  const fs::path dir = fresh_dir("none");
  const std::string frames = "frame,ctx,t_ns,gpu_ms\n1,7,100,\n";
  write(dir / "frames.csv", frames);
  EXPECT_EQ(pictor::runner::merge_late_gpu(dir.string()), 0u);  // no gpu.csv
  write(dir / "gpu.csv", "frame,gpu_ms\n1,3\n");                  // no ctx column
  EXPECT_EQ(pictor::runner::merge_late_gpu(dir.string()), 0u);
  write(dir / "gpu.csv", "frame,ctx,gpu_ms\n\"1,7,3\n");          // a quote left open
  EXPECT_EQ(pictor::runner::merge_late_gpu(dir.string()), 0u);
  EXPECT_EQ(read(dir / "frames.csv"), frames);
  fs::remove_all(dir);
}
