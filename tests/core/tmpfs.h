// A small tmpfs mounted for a test, so a disk fills up for real (core/files.h's tests, the
// writers' full-disk tests). Mounting needs root: without it the test is skipped, saying why.
#pragma once
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

namespace pictor::test {

class Tmpfs {
 public:
  // `size` as mount(8) takes it: "16k", "300k".
  explicit Tmpfs(const char* size) {
    char templ[] = "/tmp/pictor-tmpfs-XXXXXX";
    if (::mkdtemp(templ) == nullptr) {
      skip_ = std::string("mkdtemp failed (") + std::strerror(errno) + ")";
      return;
    }
    path_ = templ;
    const std::string options = std::string("size=") + size;
    if (::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) != 0)
      skip_ = std::string("mounting a tmpfs is not permitted here (") + std::strerror(errno) + ")";
    else
      mounted_ = true;
  }
  ~Tmpfs() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
    if (!path_.empty()) ::rmdir(path_.c_str());
  }
  Tmpfs(const Tmpfs&) = delete;
  Tmpfs& operator=(const Tmpfs&) = delete;

  // Empty when mounted; else why not (for GTEST_SKIP).
  const std::string& skip_reason() const { return skip_; }
  const std::filesystem::path& path() const { return path_; }

  // Fills the disk with file `name` until a write is refused; returns the bytes it took.
  std::size_t fill(const std::string& name) const {
    const int fd = ::open((path_ / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return 0;
    char block[4096];
    std::memset(block, 'x', sizeof block);
    std::size_t total = 0;
    for (;;) {
      const ssize_t n = ::write(fd, block, sizeof block);
      if (n <= 0) break;
      total += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return total;
  }

 private:
  std::filesystem::path path_;
  bool mounted_ = false;
  std::string skip_;
};

}  // namespace pictor::test

#define PICTOR_SKIP_WITHOUT_TMPFS(t) \
  if (!(t).skip_reason().empty()) GTEST_SKIP() << (t).skip_reason()
