#include "core/files.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace pictor::files {

namespace {

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string reason(const std::string& path, int error) {
  if (is_disk_full(error)) return write_failure_text(parent_of(path), error);
  return std::strerror(error);
}

std::uint64_t count_rows(const char* data, std::size_t size) noexcept {
  std::uint64_t n = 0;
  for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, '\n', size - static_cast<std::size_t>(p - data)))); ++p)
    ++n;
  return n;
}

// DIR/.NAME.PID.tmp beside `path`: hidden, and apart from another process replacing the same file.
bool temp_name(const char* path, char* out, std::size_t size) noexcept {
  const char* slash = std::strrchr(path, '/');
  const int dir_len = slash ? static_cast<int>(slash - path + 1) : 0;
  const char* base = slash ? slash + 1 : path;
  const int n = std::snprintf(out, size, "%.*s.%s.%d.tmp", dir_len, path, base, static_cast<int>(::getpid()));
  return n > 0 && static_cast<std::size_t>(n) < size;
}

constexpr auto kSpaces = [] {
  std::array<char, 4096> a{};
  a.fill(' ');
  return a;
}();

// Overwrites `path` in place when its allocated blocks hold `size` bytes: no block is needed, so
// it works on a full disk. A shorter content is padded with spaces (and a final newline) to the
// old length in the same pwritev, so the file never ends in a piece of its older version.
int overwrite_in_place(const char* path, const void* data, std::size_t size, bool sync) noexcept {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::uint64_t>(st.st_blocks) * 512 < size) {
    ::close(fd);
    return ENOSPC;
  }
  const std::size_t old = static_cast<std::size_t>(st.st_size);
  std::size_t pad = old > size ? old - size : 0;
  constexpr int kMaxIov = 64;
  iovec iov[kMaxIov];
  int count = 0;
  iov[count++] = {const_cast<void*>(data), size};
  const bool newline = pad > 0;
  if (newline) --pad;  // the last padding byte is a newline
  while (pad > 0 && count < kMaxIov - 1) {
    const std::size_t n = std::min(pad, kSpaces.size());
    iov[count++] = {const_cast<char*>(kSpaces.data()), n};
    pad -= n;
  }
  if (newline) iov[count++] = {const_cast<char*>("\n"), 1};
  int err = 0;
  if (pad > 0) {
    err = EFBIG;  // more than 63 × 4 KiB to pad: not worth a second, non-atomic write
  } else {
    const ssize_t total = static_cast<ssize_t>(std::max(old, size));
    ssize_t w;
    do {
      w = ::pwritev(fd, iov, count, 0);
    } while (w < 0 && errno == EINTR);
    if (w < 0) err = errno;
    else if (w != total) err = ENOSPC;
  }
  if (err == 0 && sync && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  return err;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

ReadError::ReadError(std::string path, int error, const std::string& what)
    : UsageError(what), path_(std::move(path)), error_(error) {}

WriteError::WriteError(std::string path, int error, std::string_view action)
    : RunError("cannot " + std::string(action) + " " + path + ": " + reason(path, error)),
      path_(std::move(path)),
      error_(error) {}

bool WriteError::disk_full() const { return is_disk_full(error_); }

bool is_disk_full(int error) noexcept { return error == ENOSPC || error == EDQUOT; }

std::string write_failure_text(const std::string& dir, int error) {
  if (error == ENOSPC) return "the disk holding " + dir + " is full (" + std::strerror(error) + ")";
  if (error == EDQUOT) return "the disk quota of " + dir + " is used up (" + std::strerror(error) + ")";
  return "writing to " + dir + " failed (" + std::strerror(error) + ")";
}

std::string read_file(const std::filesystem::path& path, std::size_t max_bytes) {
  std::optional<std::string> text = read_file_if_exists(path, max_bytes);
  if (!text) throw ReadError(path.string(), ENOENT, path.string() + ": cannot open: " + std::strerror(ENOENT));
  return std::move(*text);
}

std::optional<std::string> read_file_if_exists(const std::filesystem::path& path, std::size_t max_bytes) {
  const std::string p = path.string();
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT) return std::nullopt;
    throw ReadError(p, e, p + ": cannot open: " + std::strerror(e));
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw ReadError(p, EISDIR, p + ": is a directory, not a file");
  }
  std::string out;
  if (S_ISREG(st.st_mode) && st.st_size > 0)
    out.reserve(std::min(static_cast<std::size_t>(st.st_size), max_bytes) + 1);
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      throw ReadError(p, e, p + ": cannot read: " + std::strerror(e));
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      throw ReadError(p, 0, p + ": larger than " + std::to_string(max_bytes >> 20) + " MiB, not read");
    }
    out.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

void write_file(const std::filesystem::path& path, std::string_view content, const WriteOptions& options) {
  const std::string p = path.string();
  if (const int e = replace_file(p.c_str(), content.data(), content.size(), options); e != 0) throw WriteError(p, e);
}

// ---------------------------------------------------------------------------------------------

int replace_file(const char* path, const void* data, std::size_t size, const WriteOptions& options) noexcept {
  char tmp[PATH_MAX];
  if (!temp_name(path, tmp, sizeof tmp)) return ENAMETOOLONG;
  const auto in_place = [&](int cause) {
    if (options.in_place_when_full && is_disk_full(cause) && overwrite_in_place(path, data, size, options.sync) == 0)
      return 0;
    return cause;
  };
  const int fd = ::open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return in_place(errno);
  int err = 0;
  write_at(fd, data, size, 0, &err);
  if (err == 0 && options.keep_room > 0 &&
      ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(size + options.keep_room)) != 0 &&
      is_disk_full(errno)) {
    // The new version fits but its room does not: the old file's room is kept by writing in
    // place; where that is impossible the new version goes in without room.
    if (in_place(errno) == 0) {
      ::close(fd);
      ::unlink(tmp);
      return 0;
    }
  }
  if (err == 0 && options.sync && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(tmp, path) != 0) err = errno;
  if (err == 0) return 0;
  ::unlink(tmp);
  return in_place(err);
}

int create_exclusive(const char* dir, const char* name, char* created, std::size_t created_size) noexcept {
  char path[PATH_MAX];
  int n = std::snprintf(path, sizeof path, "%s/%s", dir, name);
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd = ::open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST) {
    const char* dot = std::strrchr(name, '.');
    const int stem = dot ? static_cast<int>(dot - name) : static_cast<int>(std::strlen(name));
    n = std::snprintf(path, sizeof path, "%s/%.*s.%d%s", dir, stem, name, static_cast<int>(::getpid()), dot ? dot : "");
    if (n < 0 || static_cast<std::size_t>(n) >= sizeof path) {
      errno = ENAMETOOLONG;
      return -1;
    }
    // Truncated: a file of this name is a leftover of a process that had the same pid.
    fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  if (fd >= 0 && created && created_size > 0) {
    const char* base = std::strrchr(path, '/') + 1;
    std::snprintf(created, created_size, "%s", base);
  }
  return fd;
}

std::size_t write_at(int fd, const void* data, std::size_t size, std::int64_t offset, int* error) noexcept {
  const char* p = static_cast<const char*>(data);
  std::size_t done = 0;
  int err = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(fd, p + done, size - done, static_cast<off_t>(offset + static_cast<std::int64_t>(done)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      break;
    }
    if (n == 0) {
      err = EIO;  // a regular file never takes nothing without saying why
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  if (error) *error = err;
  return done;
}

std::size_t append_rows(int fd, const char* data, std::size_t size, std::int64_t& file_size, int* error) noexcept {
  int err = 0;
  const std::size_t done = write_at(fd, data, size, file_size, &err);
  std::size_t whole = done;
  if (done < size) {
    while (whole > 0 && data[whole - 1] != '\n') --whole;
    // Shrinking needs no free block. Should it fail all the same, the part row stays and its
    // rest is written when there is room again.
    if (whole < done && ::ftruncate(fd, static_cast<off_t>(file_size + static_cast<std::int64_t>(whole))) != 0)
      whole = done;
  }
  file_size += static_cast<std::int64_t>(whole);
  if (error) *error = err;
  return whole;
}

// ---------------------------------------------------------------------------------------------

RowFile::RowFile(int fd, std::string name, std::size_t max_pending)
    : fd_(fd), name_(std::move(name)), max_pending_(max_pending) {}

RowFile RowFile::create(const std::string& path, std::string_view header, std::size_t max_pending) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int e = errno;
    throw WriteError(path, e, "create");
  }
  RowFile f(fd, path.substr(path.find_last_of('/') + 1), max_pending);
  f.pending_.assign(header);
  f.pending_ += '\n';
  return f;
}

RowFile::RowFile(RowFile&& other) noexcept { *this = std::move(other); }

RowFile& RowFile::operator=(RowFile&& other) noexcept {
  if (this == &other) return *this;
  close();
  fd_ = std::exchange(other.fd_, -1);
  name_ = std::move(other.name_);
  max_pending_ = other.max_pending_;
  pending_ = std::move(other.pending_);
  other.pending_.clear();
  size_ = other.size_;
  error_ = other.error_;
  given_up_ = other.given_up_;
  closed_ = other.closed_;
  failed_writes_ = other.failed_writes_;
  rows_written_ = other.rows_written_;
  lost_rows_ = other.lost_rows_;
  lost_bytes_ = other.lost_bytes_;
  return *this;
}

RowFile::~RowFile() { close(); }

void RowFile::lose_pending() {
  lost_rows_ += count_rows(pending_.data(), pending_.size());
  lost_bytes_ += pending_.size();
  pending_.clear();
}

bool RowFile::flush() {
  if (given_up_) {
    lose_pending();
    return false;
  }
  if (fd_ < 0 && !pending_.empty()) {
    if (!closed_) {  // never opened: there is no file these rows could be missing from
      pending_.clear();
      return true;
    }
    if (error_ == 0) error_ = EBADF;  // rows after the last flush: lost, and counted
    lose_pending();
    return false;
  }
  if (pending_.empty()) return true;
  int err = 0;
  const std::size_t n = append_rows(fd_, pending_.data(), pending_.size(), size_, &err);
  rows_written_ += count_rows(pending_.data(), n);
  pending_.erase(0, n);
  if (err != 0) {
    ++failed_writes_;
    if (error_ == 0) error_ = err;
    if (pending_.size() > max_pending_) {
      given_up_ = true;
      lose_pending();
      return false;
    }
  }
  return true;
}

bool RowFile::close() {
  if (fd_ < 0) return lost_rows_ == 0;
  flush();
  closed_ = true;
  if (!pending_.empty()) {
    if (error_ == 0) error_ = EIO;
    given_up_ = true;
    lose_pending();
  }
  if (::close(fd_) != 0 && errno != EINTR) {
    // NFS and FUSE report a failed write-back here: the rows may not all be on disk.
    ++failed_writes_;
    if (error_ == 0) error_ = errno;
  }
  fd_ = -1;
  return lost_rows_ == 0;
}

std::uint64_t RowFile::rows_lost() const {
  return lost_rows_ + (error_ != 0 ? count_rows(pending_.data(), pending_.size()) : 0);
}

std::uint64_t RowFile::bytes_lost() const { return lost_bytes_ + (error_ != 0 ? pending_.size() : 0); }

std::string RowFile::loss_note() const {
  if (error_ == 0) return "";
  const std::uint64_t rows = rows_lost();
  if (rows == 0 && bytes_lost() == 0)
    return name_ + ": " + std::to_string(failed_writes_) + " write(s) failed (" + std::strerror(error_) +
           "), all rows written on retry";
  return name_ + ": " + std::to_string(rows) + " row(s) (" + std::to_string(bytes_lost()) + " bytes) not written (" +
         std::strerror(error_) + ")";
}

}  // namespace pictor::files
