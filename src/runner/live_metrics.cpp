#include "runner/live_metrics.h"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "analysis/csv.h"
#include "analysis/stats.h"
#include "core/csv_files.h"

namespace pictor::runner {

namespace {

// The fields of one row, through the one CSV reader (a stack or process name may be quoted).
std::vector<std::string> split(const std::string& row) {
  analysis::CsvReader reader(row, "live row");
  analysis::CsvRow r;
  try {
    if (reader.next(r)) return std::move(r.fields);
  } catch (const std::exception&) {
    // A row the reader refuses is skipped: live figures are best effort, the files stand.
  }
  return {};
}

std::optional<double> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::int64_t> integer(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

// A label value in Prometheus text: backslash, quote and line end escaped.
std::string label(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> FileTail::new_rows() {
  std::vector<std::string> rows;
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return rows;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(offset_));
    if (n <= 0) break;
    offset_ += static_cast<std::uint64_t>(n);
    partial_.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  std::size_t start = 0;
  for (std::size_t nl; (nl = partial_.find('\n', start)) != std::string::npos; start = nl + 1) {
    std::string line = partial_.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!header_seen_) {
      header_seen_ = true;
      continue;
    }
    if (!line.empty()) rows.push_back(std::move(line));
  }
  partial_.erase(0, start);
  return rows;
}

LiveMetrics::LiveMetrics(std::string session_dir, std::string label)
    : label_(std::move(label)),
      frames_file_(session_dir + "/" + std::string(csv_files::kFrames.name)),
      inputs_file_(session_dir + "/" + std::string(csv_files::kClientInputs.name)),
      seen_file_(session_dir + "/" + std::string(csv_files::kClientFrames.name)),
      resources_file_(session_dir + "/" + std::string(csv_files::kResources.name)) {}

void LiveMetrics::poll() {
  for (const std::string& r : frames_file_.new_rows()) add_frame(r);
  for (const std::string& r : inputs_file_.new_rows()) add_sent(r);
  for (const std::string& r : seen_file_.new_rows()) add_seen(r);
  for (const std::string& r : resources_file_.new_rows()) add_resource(r);
}

// frames.csv: frame,ctx,swap_ns,frame_ms,…
void LiveMetrics::add_frame(const std::string& row) {
  const std::vector<std::string> f = split(row);
  if (f.size() < 4) return;
  const auto swap = integer(f[2]);
  if (!swap) return;
  ++frames_;
  // The first frame of a context has no frame time (empty): it counts, without a duration.
  window_.emplace_back(*swap, number(f[3]).value_or(NAN));
  const auto window_ns = static_cast<std::int64_t>(kLiveWindowS * 1e9);
  while (!window_.empty() && window_.front().first < *swap - window_ns) window_.pop_front();
}

// client_inputs.csv: tag,kind,detail,sent_ns,name
void LiveMetrics::add_sent(const std::string& row) {
  const std::vector<std::string> f = split(row);
  if (f.size() < 4) return;
  const auto tag = integer(f[0]), sent = integer(f[3]);
  if (tag && sent && *tag > 0) sent_.emplace(*tag, *sent);
}

// client_frames.csv: seen_ns,tag,… — the first frame seen with a tag of n or more answers input n.
void LiveMetrics::add_seen(const std::string& row) {
  const std::vector<std::string> f = split(row);
  if (f.size() < 2) return;
  const auto seen = integer(f[0]), tag = integer(f[1]);
  if (!seen || !tag || *tag <= answered_up_to_) return;
  for (auto it = sent_.upper_bound(answered_up_to_); it != sent_.end() && it->first <= *tag; ++it)
    rtt_ms_.push_back(static_cast<double>(*seen - it->second) * 1e-6);
  answered_up_to_ = *tag;
}

// resources.csv: t_ns,stack,role,pid,name,user_s,system_s,… (a machine row has no pid).
void LiveMetrics::add_resource(const std::string& row) {
  const std::vector<std::string> f = split(row);
  if (f.size() < 7) return;
  const auto t = integer(f[0]), pid = integer(f[3]);
  const auto user = number(f[5]), system = number(f[6]);
  if (!t || !pid || !user || !system) return;
  auto& [older, newer] = cpu_[{f[2], static_cast<int>(*pid), f[4]}];
  older = newer;
  newer = Sample{*t, *user + *system};
}

std::optional<double> LiveMetrics::fps() const {
  if (window_.size() < 2) return std::nullopt;
  const double span_s = static_cast<double>(window_.back().first - window_.front().first) * 1e-9;
  if (span_s <= 0) return std::nullopt;
  return static_cast<double>(window_.size() - 1) / span_s;
}

std::optional<double> LiveMetrics::frame_ms_percentile(double p) const {
  std::vector<double> ms;
  for (const auto& [swap, frame_ms] : window_)
    if (std::isfinite(frame_ms)) ms.push_back(frame_ms);
  if (ms.empty()) return std::nullopt;
  return analysis::stats::percentile(ms, p);
}

std::optional<double> LiveMetrics::rtt_last_ms() const {
  return rtt_ms_.empty() ? std::nullopt : std::optional<double>(rtt_ms_.back());
}

std::optional<double> LiveMetrics::rtt_median_ms() const {
  if (rtt_ms_.empty()) return std::nullopt;
  return analysis::stats::percentile(rtt_ms_, 50);
}

std::vector<LiveMetrics::ProcessCpu> LiveMetrics::process_cpu() const {
  std::vector<ProcessCpu> out;
  for (const auto& [key, samples] : cpu_) {
    const auto& [older, newer] = samples;
    // One sample says nothing about a rate: the process is left out until its second.
    if (!older || !newer || newer->t_ns <= older->t_ns) continue;
    const double pct = (newer->cpu_s - older->cpu_s) / (static_cast<double>(newer->t_ns - older->t_ns) * 1e-9) * 100;
    out.push_back({std::get<0>(key), std::get<2>(key), std::get<1>(key), pct});
  }
  return out;
}

std::string LiveMetrics::prometheus_text() const {
  const std::string app = "app=\"" + label(label_) + "\"";
  std::string out;
  const auto metric = [&](const char* name, const char* type, const char* help) {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  };
  const auto value = [&](const char* name, const std::string& labels, double v) {
    out += fmt::format("{}{{{}}} {}\n", name, labels, v);
  };
  metric("pictor_frames_total", "counter", "Frames the app presented so far (frames.csv rows).");
  value("pictor_frames_total", app, static_cast<double>(frames_));
  if (const auto f = fps()) {
    metric("pictor_fps", "gauge", "Frames per second over the last 5 s of frames.");
    value("pictor_fps", app, *f);
  }
  if (frame_ms_percentile(50)) {
    metric("pictor_frame_time_ms", "gauge", "Frame time percentile (nearest rank) over the last 5 s of frames, in ms.");
    for (const double p : {50.0, 90.0, 99.0})
      value("pictor_frame_time_ms", app + fmt::format(",quantile=\"{}\"", p / 100), *frame_ms_percentile(p));
  }
  metric("pictor_inputs_sent_total", "counter", "Inputs the client has sent (client_inputs.csv rows).");
  value("pictor_inputs_sent_total", app, static_cast<double>(inputs_sent()));
  metric("pictor_inputs_matched_total", "counter",
         "Inputs whose answer the client has seen (a captured frame tagged with them or a later input).");
  value("pictor_inputs_matched_total", app, static_cast<double>(inputs_matched()));
  if (const auto r = rtt_last_ms()) {
    metric("pictor_rtt_last_ms", "gauge", "Round-trip time of the last input answered, sent to seen, in ms.");
    value("pictor_rtt_last_ms", app, *r);
    metric("pictor_rtt_median_ms", "gauge", "Median round-trip time of the inputs answered so far, in ms.");
    value("pictor_rtt_median_ms", app, *rtt_median_ms());
  }
  const std::vector<ProcessCpu> cpu = process_cpu();
  if (!cpu.empty()) {
    metric("pictor_process_cpu_percent", "gauge",
           "CPU of a process of the session between the resource sampler's last two samples, in % of one core.");
    for (const ProcessCpu& p : cpu)
      value("pictor_process_cpu_percent",
            app + fmt::format(",role=\"{}\",pid=\"{}\",process=\"{}\"", label(p.role), p.pid, label(p.name)), p.cpu_pct);
  }
  return out;
}

}  // namespace pictor::runner
