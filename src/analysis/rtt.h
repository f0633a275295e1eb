// Input-to-frame matching (DESIGN §3, §6): pairs every input the client sent with the app's read
// of it, its response frame and the first frame the client received that answers it; RTT and stages.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/bootstrap.h"
#include "analysis/proxy_stages.h"
#include "analysis/stream_stages.h"

namespace pictor::analysis {

// client_inputs.csv: one tracked input the client sent; the n-th sent has tag n.
struct SentInput {
  std::uint64_t tag = 0;
  std::string kind;          // key_press, key_release, button_press, button_release
  std::int64_t detail = 0;   // X keycode or button number
  std::int64_t sent_ns = 0;  // CLOCK_MONOTONIC right after the client flushed it to the X server
};

// inputs_read.csv (interposer): the app's event read that returned a tracked input.
struct ReadInput {
  std::uint64_t tag = 0;     // the interposer's count of tracked events read
  std::string kind;
  std::int64_t detail = 0;
  std::int64_t read_ns = 0;
};

// frames.csv (interposer), one context: a swap and the tag its marker carried.
struct AppFrame {
  std::uint64_t frame = 0;
  std::int64_t swap_ns = 0;
  double gpu_ms = std::numeric_limits<double>::quiet_NaN();        // timer query; NaN unknown
  double swap_call_ms = std::numeric_limits<double>::quiet_NaN();  // the swap call itself
  double fc_ms = std::numeric_limits<double>::quiet_NaN();  // offload's frame copy (docs/offload.md); NaN none
  std::uint64_t tag = 0;     // 0 before any input was read
  // When the swap call returned (swap_ns + swap_call_ms); nullopt when the call was not timed.
  std::optional<std::int64_t> return_ns() const;
};

// client_frames.csv: one capture the client made after the window changed.
struct SeenFrame {
  std::int64_t seen_ns = 0;             // CLOCK_MONOTONIC when the pixels were in client memory
  std::optional<std::uint64_t> tag;     // unwrapped from the marker; nullopt: no readable marker
  std::optional<std::uint64_t> frame;   // app frame number, unwrapped from the marker
  double decode_us = std::numeric_limits<double>::quiet_NaN();
  double capture_us = std::numeric_limits<double>::quiet_NaN();
};

// Everything the matcher reads, in file order. have_reads / have_frames: whether the
// interposer's files were there (without them the stages they give are unknown, not zero);
// have_frames also needs frames.csv's tag column (frames without it are still loaded).
struct RttTimeline {
  std::vector<SentInput> sent;
  std::vector<ReadInput> reads;
  bool have_reads = false;
  std::vector<AppFrame> frames;  // the context with the most frames, in frame order
  bool have_frames = false;
  std::vector<SeenFrame> seen;   // in capture order
  // Remote adapters: the RFB client's updates and the proxy hooks' records (absent: local).
  std::vector<ClientUpdate> updates;  // in end order
  bool have_updates = false;
  ProxyEvents proxy;
  bool have_proxy = false;
  // The stream adapter's per-frame stamps (stream_frames.csv, stream_received.csv; absent: not a stream).
  std::vector<StreamFrame> stream_frames;
  std::vector<StreamReceived> stream_received;
  bool have_stream = false;
  // hook.json's gl_renderer ("" unknown). On a software renderer (llvmpipe, softpipe, swrast) the
  // swap call contains the rasterisation, so AS is reported as RD+AS.
  std::string gl_renderer;
  // hook.json's api: "GLX", "EGL" or "Vulkan" ("" unknown): which GPU timer RD comes from.
  std::string api;
  std::vector<std::string> notes;  // what the loader had to decide (context chosen, files absent)
  // A two-host session (run.json `two_hosts.clock`, docs/two-hosts.md): the render host's clock
  // minus the client host's, and its uncertainty. The loader has already moved every server-side
  // timestamp onto the client's clock by it; stages that cross hosts carry the uncertainty.
  std::optional<std::int64_t> clock_offset_ns, clock_uncertainty_ns;
};

enum class MatchStatus {
  matched,            // the client received a frame answering the input: RTT known
  not_read,           // the app never read it (it does not select that event, or ended first)
  no_response_frame,  // read, but the app swapped no frame after it
  not_seen,           // a response frame exists, but the client received none that answers it
};
const char* match_status_name(MatchStatus status);

// The timestamps Pictor holds along one input's path, in path order (CLOCK_MONOTONIC ns, one
// machine); nullopt where unknown. The stage columns are the intervals between them
// (rtt_partition.h).
struct InputPath {
  std::optional<std::int64_t> proxy_read_ns;   // remote: the proxy read the input (CS end)
  std::optional<std::int64_t> delivered_ns;    // x11vnc: its XTest delivery returned (SP end)
  std::optional<std::int64_t> app_free_ns;     // the return of the app's last swap before its read
  std::optional<std::int64_t> read_ns;         // the app read the input
  std::optional<std::int64_t> swap_ns;         // the response frame's swap call began
  std::optional<std::int64_t> swap_return_ns;  // ... and returned
  std::optional<std::int64_t> shown_return_ns; // the swap return of the frame the client saw
  std::optional<std::int64_t> proxy_start_ns;  // remote: the proxy began the update that carried it
  std::optional<std::int64_t> proxy_sent_ns;   // remote: the update's first byte could leave the proxy
  bool remote = false;     // the path runs through a proxy (CS, wait_proxy, CP on it)
  bool delivers = false;   // the proxy delivers inputs with a call Pictor times (SP on the path)
};

struct MatchedInput {
  SentInput input;
  MatchStatus status = MatchStatus::not_seen;
  // The interposer's tag for this input: equal to input.tag unless the app did not receive some
  // earlier inputs (e.g. it never selected KeyRelease), which the interposer then did not count.
  std::optional<std::uint64_t> app_tag;
  std::optional<std::int64_t> read_ns;
  std::optional<std::uint64_t> response_frame;  // first swap whose marker carries a tag >= app_tag
  std::optional<std::int64_t> response_swap_ns;
  std::optional<std::uint64_t> seen_frame;      // the frame the client matched (response or later)
  std::optional<std::int64_t> seen_ns;
  InputPath path;
  // Milliseconds; NaN where unknown. RTT = seen - sent. The stage columns partition the RTT
  // along `path` (rtt_partition.h, docs/client.md "Stages"): CS, SP, wait_app, PS, AL, AS (the
  // swap call), wait_later_frame, wait_proxy, CP, SS and unattributed sum to rtt_ms for every
  // matched input. RD (timer query) and FC overlap them and are not part of that sum.
  double rtt_ms, ps_ms, al_ms, rd_ms, as_ms;
  double cs_ms = std::numeric_limits<double>::quiet_NaN();
  double sp_ms = std::numeric_limits<double>::quiet_NaN();
  double cp_ms = std::numeric_limits<double>::quiet_NaN();
  double ss_ms = std::numeric_limits<double>::quiet_NaN();
  double fc_ms = std::numeric_limits<double>::quiet_NaN();
  double wait_app_ms = std::numeric_limits<double>::quiet_NaN();
  double wait_later_frame_ms = std::numeric_limits<double>::quiet_NaN();
  double wait_proxy_ms = std::numeric_limits<double>::quiet_NaN();
  double unattributed_ms = std::numeric_limits<double>::quiet_NaN();
};

// The matching rule of DESIGN §3. The app's reads are aligned with the sent inputs in order by
// kind and detail (reads are a subsequence of what was sent: X only delivers the event kinds an
// app selects). Input n's response frame is the first app frame with tag >= its app tag; the
// frame the client matched is the first capture with tag >= it. The proxy's timestamps are then
// added by attribute_remote_stages, and the stage columns cut from the path by partition_rtt.
// Pure: no files.
std::vector<MatchedInput> match_timeline(const RttTimeline& timeline, std::vector<std::string>* notes = nullptr);

// Loads client_inputs.csv and client_frames.csv (required unless require_client is false) and
// inputs_read.csv, frames.csv, client_updates.csv, proxy_events.csv and hook.json (optional) from
// a session directory. Throws UsageError
// "<file>:<line>: <cause>" on bad content, "<file>: not found" for a missing required file.
RttTimeline load_rtt_timeline(const std::string& session_dir, bool require_client = true);

// Writes inputs.csv (schema 1, docs/client.md) to `path`; throws RunError when it cannot.
void write_inputs_csv(const std::string& path, std::span<const MatchedInput> inputs);

// The summary.json additions: rtt_ms, stages_ms (each with its share of the RTT), rtt_partition,
// inputs, fps_client, fps_client_updates, client_frames, rtt_notes.
nlohmann::json rtt_summary(const RttTimeline& timeline, std::span<const MatchedInput> inputs,
                           std::vector<std::string> notes = {});

// A human table of the summary additions (RTT and stage distributions, input counts); empty
// when `summary` has no rtt_ms.
std::string format_rtt_summary(const nlohmann::json& summary);

// Load, match, write DIR/inputs.csv, return the summary additions: what `pictor run` calls.
nlohmann::json match_inputs(const std::string& session_dir);

// Distribution of a stage or RTT in summary.json: {n, mean, ci95:[lo,hi], min, p1, p25, p50, p75,
// p99, max}; nearest-rank percentiles; unknown values (NaN) are left out; all null when n == 0.
// ci95 is the percentile bootstrap of the mean (kBootstrapResamples resamples drawn with a
// mt19937_64 seeded with `seed`, 2.5th and 97.5th nearest-rank percentiles); null when n < 2.
inline constexpr int kBootstrapResamples = 2000;
inline constexpr std::uint64_t kBootstrapSeed = 20240601;
nlohmann::json distribution_json(std::span<const double> values, std::uint64_t seed = kBootstrapSeed);

// The bootstrap itself: {lo, hi} of the 95 % percentile interval of the mean; NaN when n < 2.
Interval bootstrap_mean_ci95(std::span<const double> values, std::uint64_t seed,
                             int resamples = kBootstrapResamples);

}  // namespace pictor::analysis
