#include "proxyhook/event_writer.h"

#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/files.h"

#include "proxyhook/rfb_input_parser.h"

namespace pictor::proxyhook {

namespace {

// At most this much of the record stream is lost when the proxy is killed.
constexpr auto kDrainPeriod = std::chrono::milliseconds(10);
// proxy.json is a summary: rewriting it on every drain would cost the proxy CPU for nothing.
constexpr auto kInfoPeriod = std::chrono::seconds(1);

thread_local bool t_writer_thread = false;

const char* kind_name(ProxyRecordKind k) {
  switch (k) {
    case ProxyRecordKind::connect: return "connect";
    case ProxyRecordKind::input: return "input";
    case ProxyRecordKind::deliver: return "deliver";
    case ProxyRecordKind::jpeg: return "jpeg";
    case ProxyRecordKind::write: return "write";
    case ProxyRecordKind::close: return "close";
    case ProxyRecordKind::parse_stop: return "parse_stop";
    case ProxyRecordKind::zlib: return "zlib";
    case ProxyRecordKind::lzo: return "lzo";
    case ProxyRecordKind::cork: return "cork";
  }
  return "unknown";
}

bool is_encoder(ProxyRecordKind k) {
  return k == ProxyRecordKind::jpeg || k == ProxyRecordKind::zlib || k == ProxyRecordKind::lzo;
}

const char* input_name(InputKind k) {
  switch (k) {
    case InputKind::key: return "key";
    case InputKind::button: return "button";
    case InputKind::none: return "";
  }
  return "";
}

// Appends ",v" or "," (v < 0: unknown).
void field(char*& p, char* end, std::int64_t v) {
  if (p >= end) return;
  const int n = v < 0 ? std::snprintf(p, static_cast<std::size_t>(end - p), ",")
                      : std::snprintf(p, static_cast<std::size_t>(end - p), ",%" PRId64, v);
  p += n > 0 ? n : 0;
}

}  // namespace

bool on_writer_thread() noexcept { return t_writer_thread; }

const char* encoder_call_name(std::int64_t call) noexcept {
  switch (static_cast<EncoderCall>(call)) {
    case EncoderCall::jpeg_compress: return "jpeg_start_compress";
    case EncoderCall::tj_compress2: return "tjCompress2";
    case EncoderCall::deflate: return "deflate";
    case EncoderCall::deflate_init: return "deflateInit_";
    case EncoderCall::deflate_init2: return "deflateInit2_";
    case EncoderCall::deflate_params: return "deflateParams";
    case EncoderCall::compress: return "compress";
    case EncoderCall::compress2: return "compress2";
    case EncoderCall::lzo1x_1_compress: return "lzo1x_1_compress";
  }
  return "";
}

std::size_t format_event_row(const ProxyRecord& r, char* buf, std::size_t size) noexcept {
  if (r.kind == ProxyRecordKind::parse_stop || size < 2) return 0;
  char* p = buf;
  char* end = buf + size - 1;
  const int n = std::snprintf(p, size, "%s,%" PRId64 ",%" PRId64, kind_name(r.kind), r.start_ns, r.end_ns);
  p += n > 0 ? n : 0;
  field(p, end, r.fd);
  field(p, end, r.bytes);
  if (p < end) p += std::snprintf(p, static_cast<std::size_t>(end - p), ",%s", input_name(r.input));
  const bool encoder = is_encoder(r.kind);
  field(p, end, encoder ? -1 : r.detail);  // an encoder's detail is its call, named in `call`
  field(p, end, r.down);
  field(p, end, r.x);
  field(p, end, r.y);
  field(p, end, r.width);
  field(p, end, r.height);
  field(p, end, r.quality);
  if (p < end) p += std::snprintf(p, static_cast<std::size_t>(end - p), ",%s", encoder ? encoder_call_name(r.detail) : "");
  if (p >= end) return 0;  // truncated: never write half a row
  *p++ = '\n';
  *p = '\0';
  return static_cast<std::size_t>(p - buf);
}

EventWriter::EventWriter(WriterSettings settings, StatusFn status, std::size_t ring_capacity)
    : ring_(ring_capacity), settings_(std::move(settings)), status_(status) {}

EventWriter::~EventWriter() { stop(); }

bool EventWriter::start() {
  char made[256];
  const int fd = files::create_exclusive(settings_.out_dir.c_str(), "proxy_events.csv", made, sizeof made);
  if (fd < 0) {
    error_ = "cannot create " + settings_.out_dir + "/proxy_events.csv: " + std::strerror(errno);
    return false;
  }
  events_path_ = settings_.out_dir + "/" + made;
  // A second proxy process in the same session keeps its records apart: proxy.PID.json beside
  // its proxy_events.PID.csv.
  const std::string name = made;
  info_path_ = settings_.out_dir + "/proxy" + name.substr(std::string("proxy_events").size(),
                                                          name.size() - std::string("proxy_events.csv").size()) + ".json";
  events_ = files::RowFile(fd, name);
  events_.rows() = std::string(csv_files::kProxyEvents.header) + '\n';
  events_.flush();
  owner_pid_ = getpid();
  write_info();
  running_.store(true);
  thread_ = std::thread([this] { loop(); });
  return true;
}

void EventWriter::stop() {
  // A forked child's copy has no thread to join and must not flush the parent's buffers again.
  if (owner_pid_ != getpid()) return;
  if (running_.exchange(false)) {
    if (thread_.joinable()) thread_.join();
  }
  if (events_.is_open()) {
    t_writer_thread = true;  // the caller's thread now writes: keep it out of the records
    drain();
    events_.close();  // what a full disk still holds back is lost now, and proxy.json says so
    write_info();
    t_writer_thread = false;
  }
}

void EventWriter::loop() {
  t_writer_thread = true;
  pthread_setname_np(pthread_self(), "pictor-proxyw");
  auto next_info = std::chrono::steady_clock::now() + kInfoPeriod;
  while (running_.load(std::memory_order_relaxed)) {
    std::this_thread::sleep_for(kDrainPeriod);
    drain();
    const auto now = std::chrono::steady_clock::now();
    const std::uint64_t failed = events_.failed_writes() + events_.rows_lost();
    if (now >= next_info && (dirty_ || ring_.dropped() != reported_drops_ || failed != reported_failures_)) {
      reported_failures_ = failed;
      write_info();
      next_info = now + kInfoPeriod;
    }
  }
}

void EventWriter::count(const ProxyRecord& r) {
  switch (r.kind) {
    case ProxyRecordKind::connect: ++counts_["connections"]; break;
    case ProxyRecordKind::input: ++counts_[r.input == InputKind::key ? "key_events" : "button_changes"]; break;
    case ProxyRecordKind::deliver: ++counts_["deliveries"]; break;
    case ProxyRecordKind::jpeg:
      ++counts_["jpeg_compressions"];
      if (r.quality >= 0) qualities_.insert(r.quality);
      break;
    case ProxyRecordKind::write:
      ++counts_["writes"];
      if (r.bytes > 0) counts_["write_bytes"] += static_cast<std::uint64_t>(r.bytes);
      return;  // frequent and expected: not worth a proxy.json rewrite each
    case ProxyRecordKind::zlib: ++counts_["zlib_calls"]; return;  // as frequent as writes
    case ProxyRecordKind::lzo: ++counts_["lzo_calls"]; return;
    case ProxyRecordKind::cork: ++counts_["corks"]; return;
    case ProxyRecordKind::close: ++counts_["closes"]; break;
    case ProxyRecordKind::parse_stop: {
      char line[160];
      std::snprintf(line, sizeof line, "fd %d: stopped parsing client messages at %" PRId64 " ns: %s (message type %d)",
                    r.fd, r.start_ns, parse_problem_text(static_cast<ParseProblem>(r.detail)), r.x);
      problems_.push_back(line);
      break;
    }
  }
  dirty_ = true;
}

void EventWriter::drain() {
  ProxyRecord r;
  char row[256];
  while (ring_.pop(r)) {
    count(r);
    const std::size_t n = format_event_row(r, row, sizeof row);
    if (n > 0) events_.rows().append(row, n);
  }
  events_.flush();
}

void EventWriter::write_info() {
  nlohmann::json j;
  j["schema"] = 1;
  j["proxy"] = settings_.proxy;
  j["pid"] = getpid();
  char exe[512] = {};
  if (::readlink("/proc/self/exe", exe, sizeof exe - 1) < 0) exe[0] = '\0';
  j["exe"] = exe;
  j["port"] = settings_.port >= 0 ? nlohmann::json(settings_.port) : nlohmann::json();
  j["events_file"] = events_path_.substr(events_path_.find_last_of('/') + 1);
  j["events_schema"] = csv_files::kProxyEvents.schema;
  const HookStatus s = status_ ? status_() : HookStatus{};
  j["hooks"] = {{"found", s.found}, {"missing", s.missing}};
  nlohmann::json counts = nlohmann::json::object();
  for (const char* name : {"connections", "key_events", "button_changes", "deliveries", "jpeg_compressions",
                           "zlib_calls", "lzo_calls", "writes", "write_bytes", "corks", "closes"})
    counts[name] = counts_.count(name) ? counts_.at(name) : 0;
  counts["motion_events"] = s.motion_events;
  counts["read_bytes"] = s.read_bytes;
  counts["untracked_connections"] = s.untracked_fds;
  j["counts"] = counts;
  j["jpeg_quality_seen"] = qualities_;
  j["parse_problems"] = problems_;
  reported_drops_ = ring_.dropped();
  j["records_dropped"] = reported_drops_;
  nlohmann::json errors = nlohmann::json::object();
  if (events_.error() != 0)
    errors[events_.name()] = {{"error", std::strerror(events_.error())},
                              {"failed_writes", events_.failed_writes()},
                              {"rows_written", events_.rows_written()},
                              {"rows_lost", events_.rows_lost()},
                              {"bytes_lost", events_.bytes_lost()}};
  j["write_errors"] = errors;
  dirty_ = false;

  // In place when the disk is full (its blocks are already there): the losses are still said.
  const std::string text = j.dump(2) + "\n";
  files::replace_file(info_path_.c_str(), text.data(), text.size(),
                      files::WriteOptions{.sync = false, .keep_room = 8192, .in_place_when_full = true});
}

}  // namespace pictor::proxyhook
