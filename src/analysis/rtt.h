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

#include "analysis/proxy_stages.h"

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
  std::uint64_t tag = 0;     // 0 before any input was read
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
  std::vector<std::string> notes;  // what the loader had to decide (context chosen, files absent)
};

enum class MatchStatus {
  matched,            // the client received a frame answering the input: RTT known
  not_read,           // the app never read it (it does not select that event, or ended first)
  no_response_frame,  // read, but the app swapped no frame after it
  not_seen,           // a response frame exists, but the client received none that answers it
};
const char* match_status_name(MatchStatus status);

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
  // Milliseconds; NaN where unknown. RTT = seen - sent; PS = read - sent; AL = response swap -
  // read; RD = the response frame's GPU time (timer query); AS = seen - response swap.
  // Remote sessions (docs/proxy-hooks.md): CS = proxy read - sent; SP = delivery - proxy read
  // (x11vnc); PS = read - delivery (x11vnc) or read - proxy read (xvnc, includes SP); CP = the
  // seen update's JPEG compressions, first start to last end; SS = update end - last compression
  // end; AS = the response frame's swap call. FC is never known (no readback to time).
  double rtt_ms, ps_ms, al_ms, rd_ms, as_ms;
  double cs_ms = std::numeric_limits<double>::quiet_NaN();
  double sp_ms = std::numeric_limits<double>::quiet_NaN();
  double cp_ms = std::numeric_limits<double>::quiet_NaN();
  double ss_ms = std::numeric_limits<double>::quiet_NaN();
  double fc_ms = std::numeric_limits<double>::quiet_NaN();
};

// The matching rule of DESIGN §3. The app's reads are aligned with the sent inputs in order by
// kind and detail (reads are a subsequence of what was sent: X only delivers the event kinds an
// app selects). Input n's response frame is the first app frame with tag >= its app tag; the
// frame the client matched is the first capture with tag >= it. Remote stages are then
// attributed by attribute_remote_stages. Pure: no files.
std::vector<MatchedInput> match_timeline(const RttTimeline& timeline, std::vector<std::string>* notes = nullptr);

// Loads client_inputs.csv and client_frames.csv (required unless require_client is false) and
// inputs_read.csv, frames.csv, client_updates.csv and proxy_events.csv (optional) from a session
// directory. Throws UsageError
// "<file>:<line>: <cause>" on bad content, "<file>: not found" for a missing required file.
RttTimeline load_rtt_timeline(const std::string& session_dir, bool require_client = true);

// Writes inputs.csv (schema 1, docs/client.md) to `path`; throws RunError when it cannot.
void write_inputs_csv(const std::string& path, std::span<const MatchedInput> inputs);

// The summary.json additions: rtt_ms, stages_ms, inputs, fps_client, fps_client_updates,
// client_frames, rtt_notes.
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
struct Interval {
  double lo, hi;
};
Interval bootstrap_mean_ci95(std::span<const double> values, std::uint64_t seed,
                             int resamples = kBootstrapResamples);

}  // namespace pictor::analysis
