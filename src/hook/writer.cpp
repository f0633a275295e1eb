#include "hook/writer.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "core/clock.h"
#include "core/csv_files.h"
#include "core/files.h"
#include "core/record_ring.h"
#include "hook/config.h"
#include "hook/input_tracker.h"
#include "hook/offload.h"

namespace pictor::hook {
namespace {

// A row waits this long for its GPU result before it is written without one (the result then
// only goes to gpu.csv, and `pictor run` merges it back). Together with the drain period this
// bounds what a SIGKILL can lose.
constexpr std::int64_t kGpuWaitNs = 50'000'000;
// 50 wake-ups a second (one per ~26 frames at 1 300 FPS), each a nanosleep and one write per
// file with new rows: the writer's CPUs compete with llvmpipe's threads on small machines.
constexpr auto kDrainPeriod = std::chrono::milliseconds(20);
// GPU results kept for frames whose record has not come yet (async offload holds a frame's
// record until its copy ends, a few frames at most); a bound so a lost record cannot grow it.
constexpr std::size_t kMaxEarlyGpu = 64;

struct Row {
  HookRecord frame;
  std::int64_t gpu_ns = -1;
};

struct CtxRows {
  std::int64_t prev_swap_ns = -1;
  std::int64_t prev_return_ns = -1;
  std::deque<Row> waiting;
  // GPU results that came before their frame's record: an offloaded frame copied with
  // PICTOR_FRAME_COPY=async is pushed when its copy ends, a swap or more after its query did.
  std::map<std::uint64_t, std::int64_t> early_gpu;
  std::int64_t last_frame = -1;  // the newest frame record received
};

class Writer {
 public:
  RecordRing<HookRecord> ring{1 << 14};

  void start() {
    running_.store(true);
    thread_ = std::thread([this] { loop(); });
  }

  void stop() {
    if (!running_.exchange(false)) return;
    if (thread_.joinable()) thread_.join();
  }

  void set_info(const char* renderer, const char* version, const char* vendor, const char* api,
                const char* gpu_timer) {
    std::lock_guard lock(info_mutex_);
    if (!renderer_.empty()) return;
    renderer_ = renderer ? renderer : "";
    version_ = version ? version : "";
    vendor_ = vendor ? vendor : "";
    api_ = api ? api : "";
    gpu_timer_ = gpu_timer ? gpu_timer : "";
    info_dirty_ = true;
  }

 private:
  void loop() {
    pthread_setname_np(pthread_self(), "pictor-writer");
    while (running_.load(std::memory_order_relaxed)) {
      std::this_thread::sleep_for(kDrainPeriod);
      drain(false);
    }
    drain(true);
  }

  void drain(bool final) {
    HookRecord r;
    while (ring.pop(r)) {
      if (r.kind == HookRecordKind::frame) {
        auto& ctx = contexts_[r.ctx];
        std::int64_t gpu_ns = -1;
        if (!ctx.early_gpu.empty()) {
          if (auto it = ctx.early_gpu.find(r.frame); it != ctx.early_gpu.end()) gpu_ns = it->second;
          // Frames come in order: results of this frame and older ones are no longer awaited.
          ctx.early_gpu.erase(ctx.early_gpu.begin(), ctx.early_gpu.upper_bound(r.frame));
        }
        ctx.waiting.push_back(Row{r, gpu_ns});
        ctx.last_frame = static_cast<std::int64_t>(r.frame);
      } else if (r.kind == HookRecordKind::input) {
        input_line(r);
      } else if (r.kind == HookRecordKind::gpu) {
        gpu_line(r);
        auto& ctx = contexts_[r.ctx];
        for (auto& row : ctx.waiting)
          if (row.frame.frame == r.frame) row.gpu_ns = r.value;
        if (static_cast<std::int64_t>(r.frame) > ctx.last_frame && ctx.early_gpu.size() < kMaxEarlyGpu)
          ctx.early_gpu[r.frame] = r.value;
      }
    }
    const std::int64_t now = monotonic_ns();
    for (auto& [id, ctx] : contexts_) {
      while (!ctx.waiting.empty()) {
        Row& row = ctx.waiting.front();
        const bool gpu_expected = row.frame.flags & kGpuPending;
        if (!final && gpu_expected && row.gpu_ns < 0 && now - row.frame.return_ns < kGpuWaitNs) break;
        frame_line(ctx, row);
        ctx.waiting.pop_front();
      }
    }
    // hook.json takes its block before the first rows: on a disk that fills with them, it is
    // still there to be rewritten in place and count what was lost.
    if (!info_written_ && !frames_name_.empty()) write_info();
    for (files::RowFile* f : {&frames_, &gpu_, &inputs_}) {
      // At the end whatever a full disk still holds back is lost, and hook.json counts it.
      if (final) f->close();
      else f->flush();
    }
    closed_ = closed_ || final;
    const auto dropped = ring.dropped();
    const auto motion = motion_events();
    const auto losses = loss_signature();
    // The offload counters change every frame: hook.json takes them when it is rewritten anyway,
    // and at the end.
    const auto puts = offload_frames_put();
    if (dropped != reported_drops_ || info_dirty_ || motion != reported_motion_ || losses != reported_losses_ ||
        (final && puts != reported_puts_)) {
      reported_puts_ = puts;
      reported_drops_ = dropped;
      reported_motion_ = motion;
      reported_losses_ = losses;
      write_info();
    }
  }

  // Failed writes and rows not in the files: hook.json is rewritten when either changes.
  std::pair<std::uint64_t, std::uint64_t> loss_signature() const {
    std::pair<std::uint64_t, std::uint64_t> s{0, 0};
    for (const files::RowFile* f : {&frames_, &gpu_, &inputs_}) {
      s.first += f->failed_writes();
      s.second += f->rows_lost();
    }
    return s;
  }

  // Milliseconds with 4 decimals, as printf's "%.4f" writes them (std::to_chars rounds the same
  // way, correctly); to_chars, not snprintf, because it is several times cheaper and the writer
  // formats six numbers per frame on the app's CPUs.
  static void append_ms(std::string& buf, std::int64_t ns) {
    if (ns < 0) return;
    char s[32];
    const auto r = std::to_chars(s, s + sizeof s, static_cast<double>(ns) / 1e6, std::chars_format::fixed, 4);
    buf.append(s, r.ptr);
  }

  template <typename Int>
  static void append_int(std::string& buf, Int v) {
    char s[24];
    const auto r = std::to_chars(s, s + sizeof s, v);
    buf.append(s, r.ptr);
  }

  void frame_line(CtxRows& ctx, const Row& row) {
    if (!open_files()) return;
    const HookRecord& f = row.frame;
    std::string& out = frames_.rows();
    append_int(out, f.frame);
    out += ',';
    append_int(out, static_cast<unsigned>(f.ctx));
    out += ',';
    append_int(out, f.swap_ns);
    out += ',';
    append_ms(out, ctx.prev_swap_ns >= 0 ? f.swap_ns - ctx.prev_swap_ns : -1);
    out += ',';
    // outside_swap_ms: from the previous swap's return to this swap call, the frame's time outside
    // the swap (PresentMon's MsCPUBusy; the column was called cpu_ms before, which readers accept).
    append_ms(out, ctx.prev_return_ns >= 0 ? f.swap_ns - ctx.prev_return_ns : -1);
    out += ',';
    append_ms(out, f.return_ns - f.swap_ns);
    out += ',';
    append_ms(out, row.gpu_ns);
    out += ',';
    append_ms(out, f.fc_ns);
    out += ',';
    if (f.value >= 0) append_int(out, f.value);
    out += ',';
    append_ms(out, f.as_start_ns >= 0 && f.as_end_ns >= f.as_start_ns ? f.as_end_ns - f.as_start_ns : -1);
    for (const std::int64_t ns : {f.fc_start_ns, f.fc_end_ns, f.as_start_ns, f.as_end_ns}) {
      out += ',';
      if (ns >= 0) append_int(out, ns);
    }
    out += '\n';
    ctx.prev_swap_ns = f.swap_ns;
    ctx.prev_return_ns = f.return_ns;
  }

  static const char* input_kind(int type) {
    switch (type) {
      case 2: return "key_press";
      case 3: return "key_release";
      case 4: return "button_press";
      case 5: return "button_release";
      default: return "other";
    }
  }

  void input_line(const HookRecord& r) {
    if (!inputs_.is_open()) {
      if (inputs_failed_ || closed_) return;
      inputs_ = open_excl(csv_files::kInputsRead, inputs_name_);
      if (!inputs_.is_open()) {
        inputs_failed_ = true;
        return;
      }
      std::lock_guard lock(info_mutex_);
      info_dirty_ = true;  // hook.json lists the new file
    }
    char line[128];
    std::snprintf(line, sizeof line, "%lld,%s,%llu,%lld\n", static_cast<long long>(r.value), input_kind(r.flags),
                  static_cast<unsigned long long>(r.frame), static_cast<long long>(r.swap_ns));
    inputs_.rows() += line;
  }

  void gpu_line(const HookRecord& r) {
    if (!open_files()) return;
    std::string& out = gpu_.rows();
    append_int(out, r.frame);
    out += ',';
    append_int(out, static_cast<unsigned>(r.ctx));
    out += ',';
    append_ms(out, r.value);
    out += '\n';
  }

  // Files are created on the first record, so processes that never swap (a launcher shell, a
  // helper the app forks) leave nothing behind. A second rendering process gets its own files.
  bool open_files() {
    if (frames_.is_open()) return true;
    if (open_failed_ || closed_) return false;
    const Config& cfg = config();
    frames_ = open_excl(csv_files::kFrames, frames_name_);
    if (!frames_.is_open()) {
      open_failed_ = true;
      log_line("cannot create frames.csv in %s (%s): frames are not recorded", cfg.out_dir,
               std::strerror(errno));
      return false;
    }
    gpu_ = open_excl(csv_files::kGpu, gpu_name_);
    return true;
  }

  // Creates NAME.csv (NAME.PID.csv when another process of the session has it) starting with its
  // header row; the schema version is in hook.json.
  static files::RowFile open_excl(const csv_files::CsvFile& file, std::string& created) {
    char name[256], made[256];
    std::snprintf(name, sizeof name, "%.*s", static_cast<int>(file.name.size()), file.name.data());
    const int fd = files::create_exclusive(config().out_dir, name, made, sizeof made);
    if (fd < 0) return {};
    created = made;
    files::RowFile f(fd, created);
    f.rows().assign(file.header);
    f.rows() += '\n';
    return f;
  }

  static std::string json_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) < 0x20) continue;
      out += c;
    }
    return out;
  }

  void write_info() {
    if (frames_name_.empty()) return;
    std::string body;
    {
      std::lock_guard lock(info_mutex_);
      info_dirty_ = false;
      char exe[512] = {};
      [[maybe_unused]] auto n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
      body = "{\"schema\": 1, \"pid\": " + std::to_string(getpid()) + ", \"exe\": \"" +
             json_escape(exe) + "\", \"gl_renderer\": \"" + json_escape(renderer_) +
             "\", \"gl_version\": \"" + json_escape(version_) + "\", \"gl_vendor\": \"" +
             json_escape(vendor_) + "\", \"api\": \"" + json_escape(api_) +
             "\", \"gpu_timer\": \"" + json_escape(gpu_timer_) +
             "\", \"records_dropped\": " + std::to_string(reported_drops_) +
             ", \"motion_events_read\": " + std::to_string(reported_motion_) +
             ", \"marker\": " + (config().marker ? "true" : "false") + offload_json() + ", \"files\": {";
      bool first = true;
      for (const auto& [name, schema] : {std::pair{&frames_name_, csv_files::kFrames.schema},
                                         std::pair{&gpu_name_, csv_files::kGpu.schema},
                                         std::pair{&inputs_name_, csv_files::kInputsRead.schema}}) {
        if (name->empty()) continue;
        body += (first ? "\"" : ", \"") + json_escape(*name) + "\": {\"schema\": " + std::to_string(schema) + "}";
        first = false;
      }
      body += "}, \"write_errors\": {";
      first = true;
      for (const files::RowFile* f : {&frames_, &gpu_, &inputs_}) {
        if (f->error() == 0) continue;
        body += (first ? "\"" : ", \"") + json_escape(f->name()) + "\": {\"error\": \"" +
                json_escape(std::strerror(f->error())) + "\", \"failed_writes\": " + std::to_string(f->failed_writes()) +
                ", \"rows_written\": " + std::to_string(f->rows_written()) +
                ", \"rows_lost\": " + std::to_string(f->rows_lost()) +
                ", \"bytes_lost\": " + std::to_string(f->bytes_lost()) + "}";
        first = false;
      }
      body += "}}\n";
    }
    // Rewritten in place when the disk is full (its block is already there), so the losses
    // above are still said where nothing else can be written.
    char path[1200];
    std::snprintf(path, sizeof path, "%s/hook.json", config().out_dir);
    if (files::replace_file(path, body.data(), body.size(),
                            files::WriteOptions{.sync = false, .keep_room = 4096, .in_place_when_full = true}) == 0)
      info_written_ = true;
  }

  std::atomic<bool> running_{false};
  std::thread thread_;
  std::map<std::uint16_t, CtxRows> contexts_;
  files::RowFile frames_, gpu_, inputs_;
  std::string frames_name_, gpu_name_, inputs_name_;  // the files created, for hook.json
  bool open_failed_ = false, inputs_failed_ = false, closed_ = false, info_written_ = false;
  std::uint64_t reported_drops_ = 0;
  std::uint64_t reported_motion_ = 0;
  std::uint64_t reported_puts_ = 0;
  std::pair<std::uint64_t, std::uint64_t> reported_losses_{0, 0};
  std::mutex info_mutex_;
  bool info_dirty_ = false;
  std::string renderer_, version_, vendor_, api_, gpu_timer_;
};

// Never destroyed: app threads may still push while the process exits.
Writer* g_writer = nullptr;

}  // namespace

void push_record(const HookRecord& record) noexcept {
  if (g_writer) g_writer->ring.push(record);
}

void note_gl_info(const char* renderer, const char* version, const char* vendor, const char* api,
                  const char* gpu_timer) noexcept {
  if (!g_writer) return;
  try {
    g_writer->set_info(renderer, version, vendor, api, gpu_timer);
  } catch (...) {
  }
}

void start_writer() noexcept {
  if (!config().recording || g_writer) return;
  try {
    g_writer = new Writer();
    g_writer->start();
  } catch (...) {
    log_line("cannot start the writer thread: nothing is recorded");
    g_writer = nullptr;
  }
}

void stop_writer() noexcept {
  if (!g_writer) return;
  try {
    g_writer->stop();
  } catch (...) {
  }
}

}  // namespace pictor::hook
