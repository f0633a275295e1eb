// The offset between two hosts' clocks, estimated NTP-style on the control connection
// (docs/two-hosts.md "The clock offset"): the client sends t1, the agent stamps t2 when the probe
// arrives and t3 when it answers, the client t4 when the answer arrives. With the session files'
// clock (CLOCK_MONOTONIC) on both sides, offset = ((t2-t1)+(t3-t4))/2 is how far the agent's
// clock is ahead of the client's, and a probe's round trip (t4-t1)-(t3-t2) bounds its error by
// half of it. The estimate is the probe with the smallest round trip.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "runner/remote_protocol.h"

namespace pictor::runner {

struct ClockProbe {
  std::string phase;  // "before", "during", "after"
  std::int64_t t1 = 0, t2 = 0, t3 = 0, t4 = 0;                  // CLOCK_MONOTONIC (t2, t3 the agent's)
  std::int64_t t1_real = 0, t2_real = 0, t3_real = 0, t4_real = 0;  // CLOCK_REALTIME
  std::int64_t rtt_ns() const { return (t4 - t1) - (t3 - t2); }
  std::int64_t offset_ns() const { return ((t2 - t1) + (t3 - t4)) / 2; }
  std::int64_t realtime_offset_ns() const { return ((t2_real - t1_real) + (t3_real - t4_real)) / 2; }
};

struct ClockEstimate {
  bool known = false;               // false: no probe came back
  std::int64_t offset_ns = 0;       // agent's clock − client's clock (server_t = client_t + offset)
  std::int64_t uncertainty_ns = 0;  // half the smallest round trip
  std::int64_t realtime_offset_ns = 0;
  std::size_t probes = 0;
  std::int64_t rtt_min_ns = 0, rtt_median_ns = 0, rtt_max_ns = 0;
  // The spread of the per-probe offsets: a drift during the session shows here.
  std::int64_t offset_min_ns = 0, offset_max_ns = 0;
};

ClockEstimate estimate_clock(const std::vector<ClockProbe>& probes);
// run.json `two_hosts.clock` (milliseconds beside nanoseconds for people).
nlohmann::json clock_json(const ClockEstimate& e);
// clock.csv, header first.
void write_clock_csv(const std::filesystem::path& dir, const std::vector<ClockProbe>& probes);

// One probe on `channel`: sends t1, waits up to timeout_s for the answer; a message of another
// type that arrives meanwhile is given to `other`. Throws RunError when the connection is gone
// or no answer came.
ClockProbe probe_clock(ControlChannel& channel, const std::string& phase, double timeout_s,
                       const std::function<void(const nlohmann::json&)>& other);
// The agent's answer to a probe message received at t2 (monotonic) / t2_real; sent at once.
void answer_probe(ControlChannel& channel, const nlohmann::json& probe, std::int64_t t2, std::int64_t t2_real);

std::int64_t realtime_ns();

// Whether this host's clock is disciplined by chrony or PTP, and their estimate: {"chrony":
// {"available": false, "reason": "..."} or the tracking figures, "ptp": {...}} — never guessed.
nlohmann::json clock_discipline();

}  // namespace pictor::runner
