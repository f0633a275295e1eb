// Reading and writing whole files, once for all of Pictor: a read names the path and the OS's
// reason; a file is replaced through a temporary name and a rename, so it is the old or the new
// one, never half; rows are appended whole; a full disk is named as one. The low-level part is
// libc-only, noexcept and allocation-free, for the interposers' writer threads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace pictor::files {

// ---------------------------------------------------------------------------------------------
// Errors

// A file that could not be read: bad input (exit 2). what() names the path and the reason.
class ReadError : public UsageError {
 public:
  ReadError(std::string path, int error, const std::string& what);
  const std::string& path() const { return path_; }
  int error() const { return error_; }  // errno, 0 when the cause is not the OS's (too large)

 private:
  std::string path_;
  int error_;
};

// A file that could not be written (exit 1): what() is "cannot write PATH: REASON" (or "cannot
// create …"), the reason naming the disk when it is full.
class WriteError : public RunError {
 public:
  WriteError(std::string path, int error, std::string_view action = "write");
  const std::string& path() const { return path_; }
  int error() const { return error_; }
  bool disk_full() const;  // ENOSPC or EDQUOT

 private:
  std::string path_;
  int error_;
};

// True for the errors that mean "no room": ENOSPC, EDQUOT.
bool is_disk_full(int error) noexcept;

// The cause of write error `error` on a file in `dir`, for a last stderr line:
// "the disk holding DIR is full (No space left on device)", "the disk quota of DIR is used up
// (Disk quota exceeded)", "writing to DIR failed (Input/output error)".
std::string write_failure_text(const std::string& dir, int error);

// ---------------------------------------------------------------------------------------------
// Whole files (C++ callers)

// Reads are refused past this size unless the caller allows more: /dev/zero or a mistaken
// multi-gigabyte file gives an error, not an exhausted memory.
inline constexpr std::size_t kMaxReadBytes = std::size_t{1} << 30;

// All of `path`. Throws ReadError: "PATH: cannot open: No such file or directory",
// "PATH: is a directory, not a file", "PATH: larger than 1024 MiB, not read", ….
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes = kMaxReadBytes);

// As read_file, but nullopt when the file does not exist (every other failure still throws).
std::optional<std::string> read_file_if_exists(const std::filesystem::path& path,
                                               std::size_t max_bytes = kMaxReadBytes);

struct WriteOptions {
  // fsync the new file before the rename: results that must survive a crash of the machine.
  // Off for status files an interposer rewrites often (hook.json, proxy.json).
  bool sync = true;
  // Bytes kept allocated after the content (fallocate FALLOC_FL_KEEP_SIZE; ignored where the
  // file system cannot), so a later, larger version of the file still fits on a full disk.
  std::size_t keep_room = 0;
  // When the disk is full, overwrite the existing file in place if its allocated blocks hold
  // the new content (padded with spaces to the old length; for JSON status files, where trailing
  // whitespace is harmless). Only then is a replacement not atomic.
  bool in_place_when_full = false;
};

// Replaces `path` by `content`: written to DIR/.NAME.PID.tmp, then renamed over it. On any
// failure the temporary file is removed and WriteError thrown; `path` is left as it was.
void write_file(const std::filesystem::path& path, std::string_view content, const WriteOptions& options = {});

// ---------------------------------------------------------------------------------------------
// libc-only, noexcept, no allocation (usable inside the interposers)

// write_file for C callers: 0, or the errno of the failure (the temporary file removed).
int replace_file(const char* path, const void* data, std::size_t size, const WriteOptions& options) noexcept;

// Creates DIR/NAME with O_EXCL; when another process of the session has it, DIR/STEM.PID.EXT
// (NAME = STEM.EXT). Returns the fd, or -1 with errno set. The name created (without DIR) goes
// to `created` (NUL-terminated, cut to created_size) when it is not null.
int create_exclusive(const char* dir, const char* name, char* created, std::size_t created_size) noexcept;

// pwrite of all of `data` at `offset`, retrying EINTR. Returns the bytes written; *error is 0
// when all were, else the errno that stopped it.
std::size_t write_at(int fd, const void* data, std::size_t size, std::int64_t offset, int* error) noexcept;

// Appends the rows in data (each ending in '\n') at `file_size`, whole: a write the disk cuts
// short is cut back to the last whole row (ftruncate). Returns the bytes of whole rows written
// and advances file_size by them; *error as write_at.
std::size_t append_rows(int fd, const char* data, std::size_t size, std::int64_t& file_size, int* error) noexcept;

// ---------------------------------------------------------------------------------------------
// A CSV written row by row while something runs (the interposer's frames.csv, the client's files)

// Rows are added to a buffer and flushed whole. A write the disk refuses keeps the unwritten rows
// in memory and retries them at the next flush, up to max_pending bytes; past that the file is
// given up (it ends at its last whole row) and every row after is lost — counted, never written
// with a gap. Not thread-safe: one writer.
class RowFile {
 public:
  static constexpr std::size_t kMaxPending = std::size_t{1} << 20;

  RowFile() = default;
  // Takes an fd open for writing on an empty file; `name` is used in notes (e.g. "frames.csv").
  RowFile(int fd, std::string name, std::size_t max_pending = kMaxPending);
  // Creates (truncates) `path`; `header` (without '\n') is its first row, written at the first
  // flush. Throws WriteError ("cannot create PATH: …") when the file cannot be created.
  static RowFile create(const std::string& path, std::string_view header, std::size_t max_pending = kMaxPending);
  RowFile(RowFile&& other) noexcept;
  RowFile& operator=(RowFile&& other) noexcept;
  RowFile(const RowFile&) = delete;
  RowFile& operator=(const RowFile&) = delete;
  ~RowFile();

  bool is_open() const { return fd_ >= 0; }
  const std::string& name() const { return name_; }
  // Append whole rows here, each ending in '\n'.
  std::string& rows() { return pending_; }

  // Writes the buffered rows. False once the file was given up (rows lost).
  bool flush();
  // The last flush: what cannot be written now is lost. Closes the file. False when rows were lost.
  bool close();

  int error() const { return error_; }                   // errno of the first failed write, 0 none
  std::uint64_t failed_writes() const { return failed_writes_; }
  std::uint64_t rows_written() const { return rows_written_; }
  std::uint64_t rows_lost() const;                       // not in the file: lost, or held after a failure
  std::uint64_t bytes_lost() const;
  bool given_up() const { return given_up_; }
  // "" when every write succeeded; else e.g. "frames.csv: 812 row(s) (48720 bytes) not written
  // (No space left on device)" or "frames.csv: 3 write(s) failed (No space left on device), all
  // rows written on retry".
  std::string loss_note() const;

 private:
  void lose_pending();
  int fd_ = -1;
  std::string name_;
  std::size_t max_pending_ = kMaxPending;
  std::string pending_;
  std::int64_t size_ = 0;
  int error_ = 0;
  bool given_up_ = false;
  bool closed_ = false;
  std::uint64_t failed_writes_ = 0, rows_written_ = 0, lost_rows_ = 0, lost_bytes_ = 0;
};

}  // namespace pictor::files
