// The two files the client writes into the session directory: client_inputs.csv (one row per
// tracked input sent) and client_frames.csv (one row per capture). Buffered, flushed ~10 times a second.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pictor::client {

class ClientFiles {
 public:
  // Creates (truncates) both files with their schema line and header; throws RunError naming
  // the file when it cannot.
  explicit ClientFiles(const std::string& out_dir);
  ~ClientFiles();
  ClientFiles(const ClientFiles&) = delete;
  ClientFiles& operator=(const ClientFiles&) = delete;

  void input(std::uint64_t tag, std::string_view kind, unsigned detail, std::int64_t sent_ns,
             std::string_view name);
  void frame(std::int64_t seen_ns, std::optional<std::uint64_t> tag,
             std::optional<std::uint64_t> frame, double decode_us, double capture_us);
  // Writes what is buffered when `now_ns` is 100 ms past the last write (or always with force).
  // Returns false once a write failed (disk full): rows after that are lost, and said so.
  bool flush(std::int64_t now_ns, bool force = false);
  const std::string& error() const { return error_; }

 private:
  bool write_all(int fd, std::string& buf, const char* name);
  int inputs_fd_ = -1;
  int frames_fd_ = -1;
  std::string inputs_buf_, frames_buf_;
  std::int64_t last_flush_ns_ = 0;
  std::string dir_;
  std::string error_;
};

}  // namespace pictor::client
