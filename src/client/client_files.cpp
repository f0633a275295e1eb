#include "client/client_files.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "core/csv_files.h"

namespace pictor::client {

namespace {

constexpr std::int64_t kFlushPeriodNs = 100'000'000;

}  // namespace

ClientFiles::ClientFiles(const std::string& out_dir)
    : inputs_(files::RowFile::create(out_dir + "/" + std::string(csv_files::kClientInputs.name),
                                     csv_files::kClientInputs.header)),
      frames_(files::RowFile::create(out_dir + "/" + std::string(csv_files::kClientFrames.name),
                                     csv_files::kClientFrames.header)),
      dir_(out_dir) {
  // The header rows now; a disk already full keeps them for the next flush.
  inputs_.flush();
  frames_.flush();
}

ClientFiles::~ClientFiles() { flush(0, true); }

void ClientFiles::input(std::uint64_t tag, std::string_view kind, unsigned detail,
                        std::int64_t sent_ns, std::string_view name) {
  fmt::format_to(std::back_inserter(inputs_.rows()), "{},{},{},{},{}\n", tag, kind, detail, sent_ns, name);
}

void ClientFiles::frame(std::int64_t seen_ns, std::optional<std::uint64_t> tag,
                        std::optional<std::uint64_t> frame, double decode_us, double capture_us) {
  std::string& row = frames_.rows();
  auto out = std::back_inserter(row);
  fmt::format_to(out, "{},", seen_ns);
  if (tag) fmt::format_to(out, "{}", *tag);
  row += ',';
  if (frame) fmt::format_to(out, "{}", *frame);
  row += ',';
  if (std::isfinite(decode_us)) fmt::format_to(out, "{:.2f}", decode_us);
  row += ',';
  if (std::isfinite(capture_us)) fmt::format_to(out, "{:.2f}", capture_us);
  row += '\n';
}

bool ClientFiles::flush(std::int64_t now_ns, bool force) {
  if (!force && now_ns - last_flush_ns_ < kFlushPeriodNs) return !inputs_.given_up() && !frames_.given_up();
  last_flush_ns_ = now_ns;
  if (force) {
    const bool a = inputs_.close();
    const bool b = frames_.close();
    return a && b;
  }
  const bool a = inputs_.flush();
  const bool b = frames_.flush();
  return a && b;
}

std::string ClientFiles::error() const {
  std::string out;
  for (const files::RowFile* f : {&inputs_, &frames_}) {
    if (f->rows_lost() == 0 && !f->given_up()) continue;
    out += (out.empty() ? dir_ + ": " : "; ") + f->loss_note();
  }
  return out;
}

}  // namespace pictor::client
