// The two files the client writes into the session directory: client_inputs.csv (one row per
// tracked input sent) and client_frames.csv (one row per capture). Buffered, flushed ~10 times a
// second, rows whole (core/files.h RowFile): a full disk loses rows counted, never half a row.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/files.h"

namespace pictor::client {

class ClientFiles {
 public:
  // Creates (truncates) both files with their header row; throws RunError naming the file when
  // it cannot.
  explicit ClientFiles(const std::string& out_dir);
  ~ClientFiles();
  ClientFiles(const ClientFiles&) = delete;
  ClientFiles& operator=(const ClientFiles&) = delete;

  void input(std::uint64_t tag, std::string_view kind, unsigned detail, std::int64_t sent_ns,
             std::string_view name);
  void frame(std::int64_t seen_ns, std::optional<std::uint64_t> tag,
             std::optional<std::uint64_t> frame, double decode_us, double capture_us);
  // Writes what is buffered when `now_ns` is 100 ms past the last write (or always with force).
  // Rows a full disk refuses are kept for the next flush (up to RowFile::kMaxPending bytes);
  // force is the last flush: what cannot be written then is lost. Returns false once rows were
  // lost; error() then says which and how many.
  bool flush(std::int64_t now_ns, bool force = false);
  // "" while nothing is lost; else "DIR: client_frames.csv: 812 row(s) (…) not written (No space
  // left on device)", both files' notes joined.
  std::string error() const;

 private:
  files::RowFile inputs_, frames_;
  std::int64_t last_flush_ns_ = 0;
  std::string dir_;
};

}  // namespace pictor::client
