#include "runner/remote_clock.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/clock.h"
#include "core/csv_files.h"
#include "core/error.h"
#include "core/exec.h"
#include "core/files.h"

namespace pictor::runner {
namespace fs = std::filesystem;

std::int64_t realtime_ns() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

ClockEstimate estimate_clock(const std::vector<ClockProbe>& probes) {
  ClockEstimate e;
  if (probes.empty()) return e;
  const ClockProbe* best = &probes.front();
  std::vector<std::int64_t> rtts;
  e.offset_min_ns = e.offset_max_ns = best->offset_ns();
  for (const ClockProbe& p : probes) {
    rtts.push_back(p.rtt_ns());
    if (p.rtt_ns() < best->rtt_ns()) best = &p;
    e.offset_min_ns = std::min(e.offset_min_ns, p.offset_ns());
    e.offset_max_ns = std::max(e.offset_max_ns, p.offset_ns());
  }
  std::sort(rtts.begin(), rtts.end());
  e.known = true;
  e.probes = probes.size();
  e.offset_ns = best->offset_ns();
  e.uncertainty_ns = std::max<std::int64_t>(0, best->rtt_ns()) / 2;
  e.realtime_offset_ns = best->realtime_offset_ns();
  e.rtt_min_ns = rtts.front();
  e.rtt_max_ns = rtts.back();
  e.rtt_median_ns = rtts[(rtts.size() - 1) / 2];  // nearest rank, lower middle
  return e;
}

nlohmann::json clock_json(const ClockEstimate& e) {
  if (!e.known) return {{"offset_ns", nullptr}, {"uncertainty_ns", nullptr}, {"reason", "no clock probe was answered"}};
  return {{"method", "NTP-style probes on the control connection (CLOCK_MONOTONIC); the probe with the smallest round trip"},
          {"offset_ns", e.offset_ns},
          {"uncertainty_ns", e.uncertainty_ns},
          {"offset_ms", static_cast<double>(e.offset_ns) * 1e-6},
          {"uncertainty_ms", static_cast<double>(e.uncertainty_ns) * 1e-6},
          {"realtime_offset_ns", e.realtime_offset_ns},
          {"probes", e.probes},
          {"rtt_min_ns", e.rtt_min_ns},
          {"rtt_median_ns", e.rtt_median_ns},
          {"rtt_max_ns", e.rtt_max_ns},
          {"offset_min_ns", e.offset_min_ns},
          {"offset_max_ns", e.offset_max_ns},
          {"file", "clock.csv"}};
}

void write_clock_csv(const fs::path& dir, const std::vector<ClockProbe>& probes) {
  std::string text = std::string(csv_files::kClock.header) + "\n";
  for (const ClockProbe& p : probes)
    text += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", p.phase, p.t1, p.t2, p.t3, p.t4, p.rtt_ns(), p.offset_ns(),
                        p.t1_real, p.t2_real, p.t3_real, p.t4_real, p.realtime_offset_ns());
  files::write_file(dir / csv_files::kClock.name, text);
}

ClockProbe probe_clock(ControlChannel& channel, const std::string& phase, double timeout_s,
                       const std::function<void(const nlohmann::json&)>& other) {
  static std::int64_t next_id = 0;
  const std::int64_t id = ++next_id;
  ClockProbe p;
  p.phase = phase;
  p.t1_real = realtime_ns();
  p.t1 = monotonic_ns();
  channel.send({{"type", "probe"}, {"id", id}, {"t1", p.t1}});
  const std::int64_t deadline = p.t1 + static_cast<std::int64_t>(timeout_s * 1e9);
  for (;;) {
    const double left = static_cast<double>(deadline - monotonic_ns()) * 1e-9;
    if (left <= 0) throw RunError(fmt::format("the agent answered no clock probe in {:g} s", timeout_s));
    const std::optional<nlohmann::json> m = channel.receive(left);
    const std::int64_t t4 = monotonic_ns();
    const std::int64_t t4_real = realtime_ns();
    if (!m) continue;
    if ((*m)["type"] != "probe" || m->value("id", std::int64_t{0}) != id) {
      other(*m);
      continue;
    }
    p.t4 = t4;
    p.t4_real = t4_real;
    p.t2 = m->at("t2").get<std::int64_t>();
    p.t3 = m->at("t3").get<std::int64_t>();
    p.t2_real = m->at("t2_realtime").get<std::int64_t>();
    p.t3_real = m->at("t3_realtime").get<std::int64_t>();
    return p;
  }
}

void answer_probe(ControlChannel& channel, const nlohmann::json& probe, std::int64_t t2, std::int64_t t2_real) {
  nlohmann::json a{{"type", "probe"}, {"id", probe.value("id", std::int64_t{0})}, {"t2", t2}, {"t2_realtime", t2_real}};
  a["t3_realtime"] = realtime_ns();
  a["t3"] = monotonic_ns();
  channel.send(a);
}

nlohmann::json clock_discipline() {
  nlohmann::json out;
  if (const auto chronyc = find_executable("chronyc", {"/usr/bin", "/usr/sbin"})) {
    const CommandOutput r = run_and_capture({*chronyc, "-n", "tracking"});
    if (r.exit_code == 0) out["chrony"] = {{"available", true}, {"tracking", r.output}};
    else
      out["chrony"] = {{"available", false},
                       {"reason", fmt::format("chronyc tracking failed (exit {}): {}", r.exit_code,
                                              r.output.substr(0, r.output.find('\n')))}};
  } else {
    out["chrony"] = {{"available", false}, {"reason", "chronyc is not installed"}};
  }
  std::vector<std::string> ptp;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/dev", ec))
    if (e.path().filename().string().rfind("ptp", 0) == 0) ptp.push_back(e.path().string());
  if (ptp.empty()) out["ptp"] = {{"available", false}, {"reason", "no /dev/ptp* clock on this host"}};
  else out["ptp"] = {{"available", true}, {"devices", ptp},
                     {"note", "a PTP hardware clock exists; Pictor does not read its offset (phc2sys/ptp4l estimates are not queried)"}};
  return out;
}

}  // namespace pictor::runner
