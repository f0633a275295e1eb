// client_updates.csv: one row per FramebufferUpdate the RFB client received (times, rectangles,
// bytes, bounding box, whether it touched the marker). Buffered like ClientFiles.
#pragma once
#include <cstdint>
#include <string>

#include "client/rfb_connection.h"

namespace pictor::client {

class RfbUpdatesFile {
 public:
  // Creates (truncates) out_dir/client_updates.csv with its schema line and header; throws
  // RunError naming the file when it cannot.
  explicit RfbUpdatesFile(const std::string& out_dir);
  ~RfbUpdatesFile();
  RfbUpdatesFile(const RfbUpdatesFile&) = delete;
  RfbUpdatesFile& operator=(const RfbUpdatesFile&) = delete;

  void update(std::uint64_t number, const RfbUpdate& u, bool marker);
  // Writes what is buffered when `now_ns` is 100 ms past the last write (or always with force).
  // Returns false once a write failed: later rows are lost, and error() says so.
  bool flush(std::int64_t now_ns, bool force = false);
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  std::string buf_;
  std::int64_t last_flush_ns_ = 0;
  std::string path_;
  std::string error_;
};

}  // namespace pictor::client
