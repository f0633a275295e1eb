// Outside text in messages: files read whole are refused by name when they are devices,
// directories or too large; quoted bytes never break an error line; numbers fit their column.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "core/text.h"

using namespace pictor;

namespace {

std::string error_of(const std::string& path, std::uintmax_t max = kMaxInputFileBytes) {
  try {
    read_input_file(path, max);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

class TextFiles : public ::testing::Test {
 protected:
  TextFiles() {
    dir_ = std::filesystem::temp_directory_path() / ("pictor-text-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  ~TextFiles() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  std::filesystem::path dir_;
};

}  // namespace

TEST_F(TextFiles, ReadsARegularFileByteForByte) {
  const std::string content("a,b\n\0\xff\r\n", 8);
  EXPECT_EQ(read_input_file(write("f.csv", content)), content);
  EXPECT_EQ(read_input_file(write("empty.csv", "")), "");
}

TEST_F(TextFiles, RefusesDevicesDirectoriesAndSocketsByName) {
  // /dev/zero never ends: reading it whole used to end in std::bad_alloc.
  EXPECT_EQ(error_of("/dev/zero"), "/dev/zero: is a character device, not a file Pictor can read");
  EXPECT_EQ(error_of(dir_.string()), dir_.string() + ": is a directory, not a file Pictor can read");
  const std::string sock = (dir_ / "s").string();
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  sock.copy(addr.sun_path, sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(error_of(sock), sock + ": is a socket, not a file Pictor can read");
  ::close(fd);
  EXPECT_EQ(error_of((dir_ / "nope").string()), (dir_ / "nope").string() + ": cannot open: No such file or directory");
}

TEST_F(TextFiles, RefusesAFileAboveTheLimitBeforeReadingIt) {
  const std::string path = write("big.csv", std::string(2000, 'x'));
  EXPECT_EQ(error_of(path, 1000), path + ": 2000 bytes is more than an input file may hold (1000 bytes)");
  EXPECT_EQ(read_input_file(path, 2000).size(), 2000u);
}

TEST_F(TextFiles, ReadsAPipeUpToTheLimit) {
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t writer = ::fork();
  if (writer == 0) {
    std::ofstream(fifo, std::ios::binary) << std::string(5000, 'y');
    ::_exit(0);
  }
  EXPECT_EQ(error_of(fifo, 1000), fifo + ": more than an input file may hold (1000 bytes)");
  int status = 0;
  ::waitpid(writer, &status, 0);
}

TEST(QuoteForError, EscapesEveryByteOutsidePrintableAscii) {
  // A NUL used to end the message there: "column 'frame': '" and nothing more.
  EXPECT_EQ(quote_for_error(std::string("ab\0c", 4)), "ab\\x00c");
  EXPECT_EQ(quote_for_error("line\nnext\r\x1b[2J\x7f"), "line\\x0anext\\x0d\\x1b[2J\\x7f");
  EXPECT_EQ(quote_for_error("caf\xc3\xa9"), "caf\\xc3\\xa9");
  EXPECT_EQ(quote_for_error("plain text, 'quoted' \\ back"), "plain text, 'quoted' \\ back");
}

TEST(QuoteForError, CutsLongTextShort) {
  EXPECT_EQ(quote_for_error(std::string(100'000, 'x'), 10), "xxxxxxxxxx...");
  EXPECT_EQ(quote_for_error("0123456789", 10), "0123456789");
  EXPECT_LT(quote_for_error(std::string(100'000, '\0'), 80).size(), 330u);
}

TEST(FitNumber, FixedWhenItFitsScientificOtherwise) {
  EXPECT_EQ(fit_number(16.666, 8, 2), "16.67");
  EXPECT_EQ(fit_number(12345.678, 8, 2), "12345.68");
  EXPECT_EQ(fit_number(123456.789, 8, 2), "1.23e+05");
  EXPECT_EQ(fit_number(1e300, 8, 2), "1.0e+300");
  EXPECT_EQ(fit_number(-1e300, 8, 2), "-1e+300");
  EXPECT_EQ(fit_number(-0.0035, 8, 2), "-0.00");
  for (const double v : {9.2e18, -9.2e18, 1.7976931348623157e308, 4.9e-324, 123456789.0}) {
    EXPECT_LE(fit_number(v, 8, 2).size(), 8u) << v;
  }
}
