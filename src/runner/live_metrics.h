// The figures of a session while it runs, read from its files as the interposer, the client and
// the resource sampler append to them (frames.csv, client_inputs.csv, client_frames.csv,
// resources.csv) — nothing is added on the app's render thread. Pure bookkeeping over the rows;
// metrics_server.h serves it in Prometheus text format (docs/reports.md "Live metrics").
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace pictor::runner {

// The window FPS and the frame-time percentiles are taken over: long enough for a stable 1 %
// figure at 60 FPS (300 frames), short enough to show a change within seconds.
inline constexpr double kLiveWindowS = 5.0;

// Reads the complete lines appended to a file since the last call (a line still being written
// waits for its end); the header row is skipped. A file that does not exist yet gives nothing.
class FileTail {
 public:
  explicit FileTail(std::string path) : path_(std::move(path)) {}
  std::vector<std::string> new_rows();

 private:
  std::string path_;
  std::uint64_t offset_ = 0;
  std::string partial_;
  bool header_seen_ = false;
};

class LiveMetrics {
 public:
  explicit LiveMetrics(std::string session_dir, std::string label);

  // Reads what was appended to the session's files since the last call.
  void poll();
  // The Prometheus text exposition of the figures so far (format 0.0.4). Unknown figures (no
  // frame yet, no input answered) are left out, never written as 0.
  std::string prometheus_text() const;

  // The figures, for tests and the text above.
  std::uint64_t frames() const { return frames_; }
  std::optional<double> fps() const;                      // frames per second over the window
  std::optional<double> frame_ms_percentile(double p) const;  // over the window
  std::uint64_t inputs_sent() const { return sent_.size(); }
  std::uint64_t inputs_matched() const { return rtt_ms_.size(); }
  std::optional<double> rtt_last_ms() const;
  std::optional<double> rtt_median_ms() const;
  struct ProcessCpu {
    std::string role, name;
    int pid = 0;
    double cpu_pct = 0;  // of one core, between the last two samples
  };
  std::vector<ProcessCpu> process_cpu() const;

 private:
  void add_frame(const std::string& row);
  void add_sent(const std::string& row);
  void add_seen(const std::string& row);
  void add_resource(const std::string& row);

  std::string label_;
  FileTail frames_file_, inputs_file_, seen_file_, resources_file_;
  std::uint64_t frames_ = 0;
  std::deque<std::pair<std::int64_t, double>> window_;  // (swap_ns, frame_ms) of the last kLiveWindowS
  std::map<std::int64_t, std::int64_t> sent_;            // tag → sent_ns
  std::int64_t answered_up_to_ = 0;                      // every tag up to here has its RTT
  std::vector<double> rtt_ms_;                           // in the order the inputs were answered
  struct Sample {
    std::int64_t t_ns = 0;
    double cpu_s = 0;
  };
  // (role, pid, name) → the last two samples.
  std::map<std::tuple<std::string, int, std::string>, std::pair<std::optional<Sample>, std::optional<Sample>>> cpu_;
};

}  // namespace pictor::runner
