// core/files.h on real file systems: a small tmpfs mounted for the test (skipped, saying why,
// where mounting is not permitted) fills up for real, and /dev/full refuses every write.
#include "core/files.h"

#include "core/tmpfs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace pictor::files {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    char templ[] = "/tmp/pictor-files-XXXXXX";
    path = ::mkdtemp(templ);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

using test::Tmpfs;
#define SKIP_WITHOUT_TMPFS(t) PICTOR_SKIP_WITHOUT_TMPFS(t)

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> temp_files(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tmp") out.push_back(e.path().filename().string());
  return out;
}

// ---------------------------------------------------------------------------------------------

TEST(ReadFile, ReadsAllAndNamesPathAndReason) {
  TempDir d;
  std::string big(200'000, 'a');
  big[123'456] = '\0';  // binary content survives
  std::ofstream(d.path / "f", std::ios::binary) << big;
  EXPECT_EQ(read_file(d.path / "f"), big);
  EXPECT_EQ(read_file_if_exists(d.path / "f"), big);
  EXPECT_EQ(read_file_if_exists(d.path / "none"), std::nullopt);
  try {
    read_file(d.path / "none");
    ADD_FAILURE() << "a missing file must throw";
  } catch (const ReadError& e) {
    EXPECT_EQ(std::string(e.what()), (d.path / "none").string() + ": cannot open: No such file or directory");
    EXPECT_EQ(e.error(), ENOENT);
  }
  try {
    read_file_if_exists(d.path);
    ADD_FAILURE() << "a directory must throw";
  } catch (const ReadError& e) {
    EXPECT_EQ(std::string(e.what()), d.path.string() + ": is a directory, not a file");
  }
}

TEST(ReadFile, RefusesAnEndlessFile) {
  try {
    read_file("/dev/zero", 1 << 20);
    ADD_FAILURE() << "/dev/zero must be refused";
  } catch (const ReadError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero: larger than 1 MiB, not read");
  }
  // An error is a UsageError (exit 2): a bad input file.
  EXPECT_THROW(read_file("/nonexistent/x"), UsageError);
}

TEST(WriteFile, ReplacesAtomicallyAndLeavesNoTemporary) {
  TempDir d;
  write_file(d.path / "a.json", "{\"v\": 1}\n");
  write_file(d.path / "a.json", "{\"v\": 2}\n", WriteOptions{.sync = false});
  EXPECT_EQ(slurp(d.path / "a.json"), "{\"v\": 2}\n");
  EXPECT_TRUE(temp_files(d.path).empty());
  try {
    write_file(d.path / "no-dir" / "a.json", "x");
    ADD_FAILURE() << "a missing directory must throw";
  } catch (const WriteError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write " + (d.path / "no-dir" / "a.json").string() + ": No such file or directory");
    EXPECT_FALSE(e.disk_full());
  }
}

TEST(WriteFile, AFullDiskKeepsTheOldFileAndNamesTheDisk) {
  Tmpfs t("16k");
  SKIP_WITHOUT_TMPFS(t);
  write_file(t.path() / "summary.json", "{\"old\": true}\n");
  t.fill("filler");
  const std::string big(9000, ' ');
  try {
    write_file(t.path() / "summary.json", "{\"new\": true}" + big + "\n");
    ADD_FAILURE() << "a full disk must throw";
  } catch (const WriteError& e) {
    EXPECT_TRUE(e.disk_full());
    EXPECT_EQ(e.error(), ENOSPC);
    EXPECT_EQ(std::string(e.what()), "cannot write " + (t.path() / "summary.json").string() + ": the disk holding " +
                                         t.path().string() + " is full (No space left on device)");
    EXPECT_TRUE(std::string(e.what()).find("No space left on device") != std::string::npos);
  }
  EXPECT_EQ(slurp(t.path() / "summary.json"), "{\"old\": true}\n");
  EXPECT_TRUE(temp_files(t.path()).empty()) << temp_files(t.path())[0];
}

TEST(WriteFile, KeptRoomLetsAStatusFileGrowOnAFullDisk) {
  Tmpfs t("64k");
  SKIP_WITHOUT_TMPFS(t);
  const WriteOptions status{.sync = true, .keep_room = 16384, .in_place_when_full = true};
  write_file(t.path() / "run.json", "{\"status\": \"running\"}\n", status);
  t.fill("filler");
  // Larger than one block: it fits only in the room kept.
  std::string grown = "{\"status\": \"failed\", \"pad\": \"" + std::string(9000, 'p') + "\"}\n";
  write_file(t.path() / "run.json", grown, status);
  EXPECT_EQ(slurp(t.path() / "run.json"), grown);
  // Shorter again: padded with spaces to the old length, ending in a newline (still one JSON value).
  write_file(t.path() / "run.json", "{\"status\": \"ok\"}\n", status);
  const std::string now = slurp(t.path() / "run.json");
  ASSERT_EQ(now.size(), grown.size());
  EXPECT_EQ(now.substr(0, 17), "{\"status\": \"ok\"}\n");
  EXPECT_EQ(now.find_first_not_of(' ', 17), now.size() - 1);
  EXPECT_EQ(now.back(), '\n');
  EXPECT_TRUE(temp_files(t.path()).empty());
  // More than the room: refused, the file as it was.
  EXPECT_THROW(write_file(t.path() / "run.json", std::string(40000, 'x'), status), WriteError);
  EXPECT_EQ(slurp(t.path() / "run.json"), now);
  // Without the option a full disk is an error even where the room would do.
  EXPECT_THROW(write_file(t.path() / "run.json", "{}\n", WriteOptions{}), WriteError);
  EXPECT_TRUE(temp_files(t.path()).empty());
}

TEST(WriteFile, FailureTextNamesTheDisk) {
  EXPECT_EQ(write_failure_text("/mnt/x", ENOSPC), "the disk holding /mnt/x is full (No space left on device)");
  EXPECT_EQ(write_failure_text("/mnt/x", EDQUOT), "the disk quota of /mnt/x is used up (Disk quota exceeded)");
  EXPECT_EQ(write_failure_text("/mnt/x", EIO), "writing to /mnt/x failed (Input/output error)");
  EXPECT_TRUE(is_disk_full(ENOSPC));
  EXPECT_TRUE(is_disk_full(EDQUOT));
  EXPECT_FALSE(is_disk_full(EIO));
}

TEST(CreateExclusive, ASecondProcessGetsItsOwnName) {
  TempDir d;
  char name[64];
  const int a = create_exclusive(d.path.c_str(), "frames.csv", name, sizeof name);
  ASSERT_GE(a, 0);
  EXPECT_STREQ(name, "frames.csv");
  const int b = create_exclusive(d.path.c_str(), "frames.csv", name, sizeof name);
  ASSERT_GE(b, 0);
  EXPECT_EQ(std::string(name), "frames." + std::to_string(::getpid()) + ".csv");
  const int c = create_exclusive(d.path.c_str(), "noext", name, sizeof name);
  ASSERT_GE(c, 0);
  EXPECT_STREQ(name, "noext");
  ::close(a);
  ::close(b);
  ::close(c);
  EXPECT_EQ(create_exclusive((d.path / "none").c_str(), "x.csv", name, sizeof name), -1);
  EXPECT_EQ(errno, ENOENT);
}

TEST(WriteAt, DevFullSaysNoSpace) {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  int err = 0;
  EXPECT_EQ(write_at(fd, "abc\n", 4, 0, &err), 0u);
  EXPECT_EQ(err, ENOSPC);
  RowFile f(fd, "frames.csv", 64);
  f.rows() += "1,2\n3,4\n";
  EXPECT_TRUE(f.flush());  // kept for a retry: nothing lost yet
  EXPECT_EQ(f.error(), ENOSPC);
  EXPECT_EQ(f.rows_lost(), 2u);  // not in the file
  EXPECT_EQ(f.bytes_lost(), 8u);
  EXPECT_FALSE(f.close());  // the last flush: they are lost
  EXPECT_EQ(f.rows_lost(), 2u);
  EXPECT_EQ(f.loss_note(), "frames.csv: 2 row(s) (8 bytes) not written (No space left on device)");
}

// The file that fills the disk ends at a whole row, the rows not written are counted, and once
// there is room again they follow in order.
TEST(RowFile, AFullDiskCutsAtARowAndRetries) {
  Tmpfs t("16k");
  SKIP_WITHOUT_TMPFS(t);
  RowFile f = RowFile::create((t.path() / "rows.csv").string(), "n,text");
  // Another file takes all but a part of a block.
  {
    const int fd = ::open((t.path() / "other").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    std::string x(16384 - 4096, 'x');
    ASSERT_EQ(::write(fd, x.data(), x.size()), static_cast<ssize_t>(x.size()));
    ::close(fd);
  }
  std::string expected = "n,text\n";
  int n = 0;
  for (; n < 400; ++n) {  // 400 × 33 bytes: more than the 4 KiB left
    const std::string row = std::to_string(100000 + n) + ",abcdefghijklmnopqrstuvwxyz\n";
    f.rows() += row;
    expected += row;
  }
  EXPECT_TRUE(f.flush());
  EXPECT_EQ(f.error(), ENOSPC);
  const std::string cut = slurp(t.path() / "rows.csv");
  ASSERT_FALSE(cut.empty());
  EXPECT_EQ(cut.back(), '\n') << "the file must end at a whole row";
  EXPECT_EQ(cut, expected.substr(0, cut.size()));
  EXPECT_EQ(f.rows_written() + f.rows_lost(), 401u);
  EXPECT_GT(f.rows_lost(), 0u);
  EXPECT_EQ(f.bytes_lost(), expected.size() - cut.size());
  EXPECT_NE(f.loss_note().find("not written (No space left on device)"), std::string::npos) << f.loss_note();

  ::unlink((t.path() / "other").c_str());  // room again
  f.rows() += "999999,last\n";
  expected += "999999,last\n";
  EXPECT_TRUE(f.flush());
  EXPECT_EQ(f.rows_lost(), 0u);
  EXPECT_EQ(f.failed_writes(), 1u);
  EXPECT_TRUE(f.close());
  EXPECT_EQ(slurp(t.path() / "rows.csv"), expected);
  EXPECT_EQ(f.loss_note(), "rows.csv: 1 write(s) failed (No space left on device), all rows written on retry");
}

TEST(RowFile, PastItsLimitTheFileIsGivenUpAndLaterRowsCounted) {
  Tmpfs t("16k");
  SKIP_WITHOUT_TMPFS(t);
  RowFile f = RowFile::create((t.path() / "rows.csv").string(), "n", /*max_pending=*/100);
  ASSERT_TRUE(f.flush());
  t.fill("filler");  // rows.csv keeps only the rest of its first block
  for (int i = 0; i < 500; ++i) f.rows() += "0123456789\n";
  EXPECT_FALSE(f.flush());
  EXPECT_TRUE(f.given_up());
  const std::uint64_t written = f.rows_written();
  EXPECT_GT(f.rows_lost(), 0u);
  EXPECT_EQ(written + f.rows_lost(), 501u);
  ::unlink((t.path() / "filler").c_str());  // room again, but a gap is never written
  f.rows() += "later\n";
  EXPECT_FALSE(f.flush());
  EXPECT_FALSE(f.close());
  EXPECT_EQ(written + f.rows_lost(), 502u);
  const std::string text = slurp(t.path() / "rows.csv");
  EXPECT_EQ(text.size(), 2 + 11 * (written - 1));
  EXPECT_EQ(f.bytes_lost(), 2 + 11 * 500 + 6 - text.size());
  EXPECT_EQ(text.back(), '\n');
}

TEST(RowFile, CreateNamesThePath) {
  try {
    RowFile::create("/nonexistent-dir/x.csv", "h");
    ADD_FAILURE() << "must throw";
  } catch (const WriteError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot create /nonexistent-dir/x.csv: No such file or directory");
  }
  TempDir d;
  {
    RowFile f = RowFile::create((d.path / "x.csv").string(), "a,b");
    f.rows() += "1,2\n";
    RowFile moved = std::move(f);
    EXPECT_FALSE(f.is_open());
    EXPECT_TRUE(moved.is_open());
  }  // closed: flushed
  EXPECT_EQ(slurp(d.path / "x.csv"), "a,b\n1,2\n");
}

}  // namespace
}  // namespace pictor::files
