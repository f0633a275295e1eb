#include "client/client_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "core/csv_files.h"
#include "core/error.h"

namespace pictor::client {

namespace {

constexpr std::int64_t kFlushPeriodNs = 100'000'000;

int create(const std::string& path, const std::string& header) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw RunError("cannot create " + path + ": " + std::strerror(errno));
  const std::size_t n = header.size();
  if (::write(fd, header.data(), n) != static_cast<ssize_t>(n)) {
    ::close(fd);
    throw RunError("cannot write " + path + ": " + std::strerror(errno));
  }
  return fd;
}

}  // namespace

ClientFiles::ClientFiles(const std::string& out_dir) : dir_(out_dir) {
  inputs_fd_ = create(out_dir + "/" + std::string(csv_files::kClientInputs.name),
                      std::string(csv_files::kClientInputs.header) + "\n");
  try {
    frames_fd_ = create(out_dir + "/" + std::string(csv_files::kClientFrames.name),
                        std::string(csv_files::kClientFrames.header) + "\n");
  } catch (...) {
    ::close(inputs_fd_);
    throw;
  }
}

ClientFiles::~ClientFiles() {
  flush(0, true);
  if (inputs_fd_ >= 0) ::close(inputs_fd_);
  if (frames_fd_ >= 0) ::close(frames_fd_);
}

void ClientFiles::input(std::uint64_t tag, std::string_view kind, unsigned detail,
                        std::int64_t sent_ns, std::string_view name) {
  fmt::format_to(std::back_inserter(inputs_buf_), "{},{},{},{},{}\n", tag, kind, detail, sent_ns, name);
}

void ClientFiles::frame(std::int64_t seen_ns, std::optional<std::uint64_t> tag,
                        std::optional<std::uint64_t> frame, double decode_us, double capture_us) {
  auto out = std::back_inserter(frames_buf_);
  fmt::format_to(out, "{},", seen_ns);
  if (tag) fmt::format_to(out, "{}", *tag);
  frames_buf_ += ',';
  if (frame) fmt::format_to(out, "{}", *frame);
  frames_buf_ += ',';
  if (std::isfinite(decode_us)) fmt::format_to(out, "{:.2f}", decode_us);
  frames_buf_ += ',';
  if (std::isfinite(capture_us)) fmt::format_to(out, "{:.2f}", capture_us);
  frames_buf_ += '\n';
}

bool ClientFiles::write_all(int fd, std::string& buf, const char* name) {
  std::size_t done = 0;
  while (done < buf.size()) {
    const ssize_t n = ::write(fd, buf.data() + done, buf.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (error_.empty())
        error_ = fmt::format("writing {}/{} failed ({}): later rows are lost", dir_, name,
                             std::strerror(errno));
      buf.clear();
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  buf.clear();
  return true;
}

bool ClientFiles::flush(std::int64_t now_ns, bool force) {
  if (!force && now_ns - last_flush_ns_ < kFlushPeriodNs) return error_.empty();
  last_flush_ns_ = now_ns;
  if (!error_.empty()) {
    inputs_buf_.clear();
    frames_buf_.clear();
    return false;
  }
  const bool a = write_all(inputs_fd_, inputs_buf_, "client_inputs.csv");
  const bool b = write_all(frames_fd_, frames_buf_, "client_frames.csv");
  return a && b;
}

}  // namespace pictor::client
