// The proxy hooks' background writer: drains the record ring every 10 ms into proxy_events.csv and
// keeps proxy.json (proxy, hooks found, counts, parse problems) up to date. Hooks only push.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/csv_files.h"
#include "core/files.h"
#include "core/record_ring.h"
#include "proxyhook/proxy_record.h"

namespace pictor::proxyhook {


// One proxy_events.csv row for `r` (with its newline) into buf; returns its length, or 0 for
// records that go to proxy.json only (parse_stop). Pure: unit-tested.
std::size_t format_event_row(const ProxyRecord& r, char* buf, std::size_t size) noexcept;

// True on the writer's own thread: the hooks never record what the writer does.
bool on_writer_thread() noexcept;

struct WriterSettings {
  std::string out_dir;
  std::string proxy;  // PICTOR_PROXY
  int port = -1;      // PICTOR_PROXY_PORT; -1: every accepted TCP connection is a client
};

// What the hooks know and the records do not carry, for proxy.json.
struct HookStatus {
  std::vector<std::string> found, missing;
  std::uint64_t motion_events = 0;  // pointer moves without a button change (counted, not recorded)
  std::uint64_t read_bytes = 0;     // bytes read from client connections
  std::uint64_t untracked_fds = 0;  // client connections on fds too high to follow
};

class EventWriter {
 public:
  using StatusFn = HookStatus (*)();
  EventWriter(WriterSettings settings, StatusFn status, std::size_t ring_capacity = 1u << 15);
  ~EventWriter();
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  // Any thread, no allocation, no lock; false when the ring was full (counted in proxy.json).
  bool push(const ProxyRecord& r) noexcept { return ring_.push(r); }

  // Opens the files (proxy_events.csv, or proxy_events.<pid>.csv when a first one exists) and
  // starts the thread. Returns false, with the cause in error(), when the files cannot be made.
  bool start();
  // Drains what is left, rewrites proxy.json, joins the thread. Idempotent.
  void stop();
  const std::string& error() const { return error_; }
  std::string events_path() const { return events_path_; }

 private:
  void loop();
  void drain();
  void count(const ProxyRecord& r);
  void write_info();

  RecordRing<ProxyRecord> ring_;
  WriterSettings settings_;
  StatusFn status_;
  std::string events_path_, info_path_, error_;
  files::RowFile events_;  // proxy_events.csv: rows whole, a full disk's losses counted
  int owner_pid_ = -1;  // the process that started the thread
  std::atomic<bool> running_{false};
  std::thread thread_;
  // Counts over everything drained (the writer thread only).
  std::map<std::string, std::uint64_t> counts_;
  std::set<int> qualities_;
  std::vector<std::string> problems_;
  std::uint64_t reported_drops_ = 0;
  std::uint64_t reported_failures_ = 0;
  bool dirty_ = true;
};

}  // namespace pictor::proxyhook
