// client_updates.csv: one row per FramebufferUpdate the RFB client received (times, rectangles,
// bytes, bounding box, whether it touched the marker). Buffered like ClientFiles, rows whole.
#pragma once
#include <cstdint>
#include <string>

#include "client/rfb_connection.h"
#include "core/files.h"

namespace pictor::client {

class RfbUpdatesFile {
 public:
  // Creates (truncates) out_dir/client_updates.csv with its header row; throws RunError naming
  // the file when it cannot.
  explicit RfbUpdatesFile(const std::string& out_dir);
  ~RfbUpdatesFile();
  RfbUpdatesFile(const RfbUpdatesFile&) = delete;
  RfbUpdatesFile& operator=(const RfbUpdatesFile&) = delete;

  void update(std::uint64_t number, const RfbUpdate& u, bool marker);
  // Writes what is buffered when `now_ns` is 100 ms past the last write (or always with force,
  // the last flush: what cannot be written then is lost). Returns false once rows were lost;
  // error() says how many.
  bool flush(std::int64_t now_ns, bool force = false);
  std::string error() const;

 private:
  files::RowFile file_;
  std::int64_t last_flush_ns_ = 0;
  std::string path_;
};

}  // namespace pictor::client
