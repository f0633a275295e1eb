// The client's CSVs on a disk that fills up for real: rows whole, what was lost counted in the
// error the client reports, the rows held back while the disk is full written when room returns.
#include "client/client_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "client/rfb_updates_file.h"
#include "core/tmpfs.h"

namespace pictor::client {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every line has the header's number of fields; returns the data rows.
std::size_t whole_rows(const fs::path& p) {
  const std::string text = slurp(p);
  EXPECT_FALSE(text.empty()) << p;
  if (text.empty()) return 0;
  EXPECT_EQ(text.back(), '\n') << p << " ends in half a row";
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  const auto commas = std::count(line.begin(), line.end(), ',');
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), commas) << p << ": " << line;
    ++rows;
  }
  return rows;
}

TEST(ClientFiles, AFullDiskLosesWholeRowsCountedInTheError) {
  test::Tmpfs t("32k");
  PICTOR_SKIP_WITHOUT_TMPFS(t);
  ClientFiles files(t.path().string());
  t.fill("filler");
  constexpr int kFrames = 2000;
  for (int i = 0; i < kFrames; ++i) files.frame(1'000'000'000 + i, i, i, 12.5, 40.25);
  files.input(1, "key_press", 38, 1'000'000'500, "Up");
  EXPECT_TRUE(files.flush(200'000'000));  // held back, not lost: the client goes on
  EXPECT_FALSE(files.flush(0, /*force=*/true));  // the last flush: lost now
  const std::string e = files.error();
  EXPECT_NE(e.find(t.path().string() + ": "), std::string::npos) << e;
  EXPECT_NE(e.find("client_frames.csv: "), std::string::npos) << e;
  EXPECT_NE(e.find("not written (No space left on device)"), std::string::npos) << e;
  const std::size_t frames = whole_rows(t.path() / "client_frames.csv");
  EXPECT_LT(frames, static_cast<std::size_t>(kFrames));
  const std::string lost = std::to_string(kFrames - frames) + " row(s)";
  EXPECT_NE(e.find("client_frames.csv: " + lost), std::string::npos) << e << " (expected " << lost << ")";
  whole_rows(t.path() / "client_inputs.csv");
  for (const auto& f : fs::directory_iterator(t.path())) EXPECT_NE(f.path().extension(), ".tmp");
}

TEST(ClientFiles, RowsHeldBackAreWrittenWhenRoomReturns) {
  test::Tmpfs t("32k");
  PICTOR_SKIP_WITHOUT_TMPFS(t);
  RfbUpdatesFile updates(t.path().string());
  t.fill("filler");
  RfbUpdate u;
  u.start_ns = 5;
  u.end_ns = 9;
  u.rects = 1;
  u.bytes = 100;
  u.w = u.h = 8;
  for (int i = 0; i < 300; ++i) updates.update(static_cast<std::uint64_t>(i + 1), u, i % 2 == 0);
  EXPECT_TRUE(updates.flush(200'000'000));
  fs::remove(t.path() / "filler");
  EXPECT_TRUE(updates.flush(400'000'000));
  EXPECT_TRUE(updates.flush(0, /*force=*/true));
  EXPECT_EQ(updates.error(), "");
  EXPECT_EQ(whole_rows(t.path() / "client_updates.csv"), 300u);
}

}  // namespace
}  // namespace pictor::client
