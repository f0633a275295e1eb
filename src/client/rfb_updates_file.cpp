#include "client/rfb_updates_file.h"

#include <fmt/format.h>

#include <iterator>

#include "core/csv_files.h"

namespace pictor::client {

namespace {
constexpr std::int64_t kUpdatesFlushPeriodNs = 100'000'000;
}  // namespace

RfbUpdatesFile::RfbUpdatesFile(const std::string& out_dir)
    : file_(files::RowFile::create(out_dir + "/client_updates.csv", csv_files::kClientUpdates.header)),
      path_(out_dir + "/client_updates.csv") {
  file_.flush();  // the header row now; a disk already full keeps it for the next flush
}

RfbUpdatesFile::~RfbUpdatesFile() { flush(0, true); }

void RfbUpdatesFile::update(std::uint64_t number, const RfbUpdate& u, bool marker) {
  auto out = std::back_inserter(file_.rows());
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
  if (force) return file_.close();
  if (now_ns - last_flush_ns_ < kUpdatesFlushPeriodNs) return !file_.given_up();
  last_flush_ns_ = now_ns;
  return file_.flush();
}

std::string RfbUpdatesFile::error() const {
  if (file_.rows_lost() == 0 && !file_.given_up()) return "";
  return path_.substr(0, path_.find_last_of('/')) + ": " + file_.loss_note();
}

}  // namespace pictor::client
