// files::read_input_file: the files a user points Pictor at are refused by name when they are
// devices, directories, sockets or too large, before anything is read.
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
#include "core/files.h"

using namespace pictor;
using files::read_input_file;

namespace {

std::string error_of(const std::string& path, std::size_t max = files::kMaxReadBytes) {
  try {
    read_input_file(path, max);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

class InputFiles : public ::testing::Test {
 protected:
  InputFiles() {
    dir_ = std::filesystem::temp_directory_path() / ("pictor-input-file-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  ~InputFiles() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  std::filesystem::path dir_;
};

}  // namespace

TEST_F(InputFiles, ReadsARegularFileByteForByte) {
  const std::string content("a,b\n\0\xff\r\n", 8);
  EXPECT_EQ(read_input_file(write("f.csv", content)), content);
  EXPECT_EQ(read_input_file(write("empty.csv", "")), "");
}

TEST_F(InputFiles, RefusesDevicesDirectoriesAndSocketsByName) {
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

TEST_F(InputFiles, RefusesAFileAboveTheLimitBeforeReadingIt) {
  const std::string path = write("big.csv", std::string(2000, 'x'));
  EXPECT_EQ(error_of(path, 1000), path + ": 2000 bytes is more than an input file may hold (1000 bytes)");
  EXPECT_EQ(read_input_file(path, 2000).size(), 2000u);
}

TEST_F(InputFiles, ReadsAPipeUpToTheLimit) {
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
