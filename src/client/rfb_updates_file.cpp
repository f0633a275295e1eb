#include "client/rfb_updates_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "core/csv_files.h"
#include "core/error.h"

namespace pictor::client {

namespace {
constexpr std::int64_t kFlushPeriodNs = 100'000'000;
}  // namespace

RfbUpdatesFile::RfbUpdatesFile(const std::string& out_dir) : path_(out_dir + "/client_updates.csv") {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw RunError("cannot create " + path_ + ": " + std::strerror(errno));
  buf_ = std::string(csv_files::kClientUpdates.header) + "\n";
  if (!flush(0, true)) {
    ::close(fd_);
    throw RunError("cannot write " + path_ + ": " + error_);
  }
}

RfbUpdatesFile::~RfbUpdatesFile() {
  flush(0, true);
  if (fd_ >= 0) ::close(fd_);
}

void RfbUpdatesFile::update(std::uint64_t number, const RfbUpdate& u, bool marker) {
  auto out = std::back_inserter(buf_);
  fmt::format_to(out, "{},{},{},{},", number, u.start_ns, u.end_ns, u.rects);
  if (u.bytes) fmt::format_to(out, "{}", *u.bytes);
  // A bounding box only when some rectangle changed pixels.
  if (u.rects > 0) {
    fmt::format_to(out, ",{},{},{},{},{},", u.x, u.y, u.w, u.h, marker ? 1 : 0);
  } else {
    fmt::format_to(out, ",,,,,{},", marker ? 1 : 0);
  }
  if (u.offset) fmt::format_to(out, "{}", *u.offset);
  out = '\n';
}

bool RfbUpdatesFile::flush(std::int64_t now_ns, bool force) {
  if (!force && now_ns - last_flush_ns_ < kFlushPeriodNs) return error_.empty();
  last_flush_ns_ = now_ns;
  if (!error_.empty()) {
    buf_.clear();
    return false;
  }
  std::size_t done = 0;
  while (done < buf_.size()) {
    const ssize_t n = ::write(fd_, buf_.data() + done, buf_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = fmt::format("writing {} failed ({}): later rows are lost", path_, std::strerror(errno));
      buf_.clear();
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  buf_.clear();
  return true;
}

}  // namespace pictor::client
