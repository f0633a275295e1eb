// The matching rule (DESIGN §3): sent inputs ↔ the app's reads ↔ response frames ↔ client frames.
#include "analysis/rtt.h"

#include <fmt/format.h>

#include "analysis/rtt_partition.h"
#include "tag/marker_code.h"

#include <algorithm>
#include <cmath>

namespace pictor::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The app frame the client saw in capture c. The marker carries only the frame counter's low
// bits, and the client unwraps them from the first frame it saw, so its count can be a multiple
// of 2^8 off the app's: the frame is the one at or after the response frame, swapped before the
// capture, with the same low bits and the same tag. Null when none or several qualify.
const AppFrame* shown_frame(const std::vector<AppFrame>& frames, std::optional<std::uint64_t> response,
                            const SeenFrame& c) {
  if (!response || !c.frame || !c.tag) return nullptr;
  constexpr std::uint64_t kLowMask = (std::uint64_t{1} << tag::kFrameBits) - 1;
  auto it = std::lower_bound(frames.begin(), frames.end(), *response,
                             [](const AppFrame& f, std::uint64_t n) { return f.frame < n; });
  const AppFrame* found = nullptr;
  for (; it != frames.end() && it->swap_ns <= c.seen_ns; ++it) {
    if ((it->frame & kLowMask) != (*c.frame & kLowMask) || it->tag != *c.tag) continue;
    if (found) return nullptr;  // 2^8 frames or more between them: ambiguous
    found = &*it;
  }
  return found;
}

// The return of the app's last swap call that returned at or before `t`: until then the app was
// in its previous frame and could not read events (nullopt: no timed swap before t).
std::optional<std::int64_t> app_free_at(const std::vector<AppFrame>& frames, std::int64_t t) {
  auto it = std::upper_bound(frames.begin(), frames.end(), t,
                             [](std::int64_t v, const AppFrame& f) { return v < f.swap_ns; });
  // A swap that began before t may return after it (an app reading events on another thread).
  for (int back = 0; back < 2 && it != frames.begin(); ++back) {
    --it;
    const auto r = it->return_ns();
    if (r && *r <= t) return r;
  }
  return std::nullopt;
}

// For each sent input, the index of the read that is its delivery, or -1. X delivers the sent
// events in order and drops only the kinds a window does not select, so the reads are a
// subsequence of the sent inputs with the same kind and detail; a greedy walk finds it.
std::vector<long> align_reads(const RttTimeline& t, std::vector<std::string>& notes) {
  std::vector<long> read_of(t.sent.size(), -1);
  if (!t.have_reads) {
    // Without the interposer's record, fall back on the contract: tag n is the n-th input sent.
    notes.push_back(
        "inputs_read.csv absent: assumed the app read every input in the order sent; PS and AL "
        "unknown");
    return read_of;
  }
  std::size_t j = 0;
  std::size_t renumbered = 0, foreign = 0;
  for (std::size_t i = 0; i < t.sent.size() && j < t.reads.size(); ++i) {
    const SentInput& s = t.sent[i];
    // A read before this input was sent cannot be its delivery: input from someone else (a
    // profile's start-up clicks by pictor-launch, a user at the display).
    while (j < t.reads.size() && t.reads[j].read_ns < s.sent_ns) {
      ++foreign;
      ++j;
    }
    if (j >= t.reads.size()) break;
    const ReadInput& r = t.reads[j];
    if (s.kind == r.kind && s.detail == r.detail) {
      read_of[i] = static_cast<long>(j);
      if (r.tag != s.tag) ++renumbered;
      ++j;
    }
  }
  if (foreign > 0)
    notes.push_back(fmt::format("{} read(s) in inputs_read.csv came before the input they would match was "
                                "sent: input Pictor's client did not send (e.g. start-up inputs); skipped",
                                foreign));
  if (j < t.reads.size()) {
    notes.push_back(fmt::format(
        "{} of {} reads in inputs_read.csv match no sent input (first: tag {}, {} {}): the app "
        "read input Pictor did not send, or kinds/details disagree",
        t.reads.size() - j, t.reads.size(), t.reads[j].tag, t.reads[j].kind, t.reads[j].detail));
  }
  // Counted, not derived from j: j also advanced over the start-up reads skipped above.
  const auto skipped = static_cast<std::size_t>(std::count(read_of.begin(), read_of.end(), -1L));
  if (skipped > 0) {
    notes.push_back(fmt::format(
        "the app did not receive {} sent input(s) (an event kind its window does not select, or "
        "sent after it stopped reading)",
        skipped));
  }
  if (renumbered > 0) {
    notes.push_back(fmt::format(
        "{} input(s) carry a different tag in the app than in the client: the app's tags count only "
        "what it read ({} start-up read(s) in, {} input(s) it never got out)",
        renumbered, foreign, skipped));
  }
  return read_of;
}

}  // namespace

std::optional<std::int64_t> AppFrame::return_ns() const {
  if (!std::isfinite(swap_call_ms) || swap_call_ms < 0) return std::nullopt;
  return swap_ns + std::llround(swap_call_ms * 1e6);
}

const char* match_status_name(MatchStatus status) {
  switch (status) {
    case MatchStatus::matched: return "matched";
    case MatchStatus::not_read: return "not_read";
    case MatchStatus::no_response_frame: return "no_response_frame";
    case MatchStatus::not_seen: return "not_seen";
  }
  return "not_seen";
}

std::vector<MatchedInput> match_timeline(const RttTimeline& t, std::vector<std::string>* notes_out) {
  std::vector<std::string> notes;
  const std::vector<long> read_of = align_reads(t, notes);

  // Tags along the app's frames and the client's captures only grow, but a capture without a
  // marker, or a stray older frame, must not hide a later match: search the running maximum.
  std::vector<std::uint64_t> frame_max(t.frames.size());
  for (std::size_t k = 0; k < t.frames.size(); ++k)
    frame_max[k] = std::max(t.frames[k].tag, k ? frame_max[k - 1] : 0);
  std::vector<std::uint64_t> seen_max(t.seen.size());
  for (std::size_t k = 0; k < t.seen.size(); ++k)
    seen_max[k] = std::max(t.seen[k].tag.value_or(0), k ? seen_max[k - 1] : 0);

  std::size_t frame_before_read = 0;
  std::size_t seen_before_sent = 0;
  std::size_t unresolved_shown = 0;
  std::vector<MatchedInput> out;
  out.reserve(t.sent.size());
  for (std::size_t i = 0; i < t.sent.size(); ++i) {
    MatchedInput m{t.sent[i], MatchStatus::not_seen, {}, {}, {}, {}, {}, {}, {},
                   kNaN, kNaN, kNaN, kNaN, kNaN};
    const SentInput& s = t.sent[i];
    if (read_of[i] >= 0) {
      const ReadInput& r = t.reads[static_cast<std::size_t>(read_of[i])];
      m.app_tag = r.tag;
      m.read_ns = r.read_ns;
      m.path.read_ns = r.read_ns;
      m.path.app_free_ns = app_free_at(t.frames, r.read_ns);
    } else if (!t.have_reads) {
      m.app_tag = s.tag;
    } else {
      m.status = MatchStatus::not_read;
      out.push_back(m);
      continue;
    }
    const std::uint64_t tag = *m.app_tag;

    if (t.have_frames) {
      const auto it = std::lower_bound(frame_max.begin(), frame_max.end(), tag);
      if (it == frame_max.end()) {
        // Still look at the client: frames.csv may lack the app's last rows (killed app).
        m.status = MatchStatus::no_response_frame;
      } else {
        const AppFrame& f = t.frames[static_cast<std::size_t>(it - frame_max.begin())];
        m.response_frame = f.frame;
        m.response_swap_ns = f.swap_ns;
        m.rd_ms = f.gpu_ms;
        m.fc_ms = f.fc_ms;
        m.path.swap_ns = f.swap_ns;
        m.path.swap_return_ns = f.return_ns();
        if (m.read_ns && f.swap_ns < *m.read_ns) ++frame_before_read;  // inconsistent: no AL
      }
    }

    const auto it = std::lower_bound(seen_max.begin(), seen_max.end(), tag);
    if (it != seen_max.end()) {
      const SeenFrame& c = t.seen[static_cast<std::size_t>(it - seen_max.begin())];
      if (c.seen_ns < s.sent_ns) {
        ++seen_before_sent;
      } else {
        m.status = MatchStatus::matched;
        m.seen_ns = c.seen_ns;
        m.seen_frame = c.frame;
        m.rtt_ms = static_cast<double>(c.seen_ns - s.sent_ns) / 1e6;
        // The frame the client saw: the response frame, or a later one when it missed that.
        if (t.have_frames) {
          m.seen_frame.reset();
          if (const AppFrame* shown = shown_frame(t.frames, m.response_frame, c)) {
            m.seen_frame = shown->frame;
            m.path.shown_return_ns = shown->return_ns();
          } else {
            ++unresolved_shown;
          }
        }
      }
    }
    out.push_back(m);
  }
  if (frame_before_read > 0) {
    notes.push_back(fmt::format(
        "{} response frame(s) swapped before the app read the input: tags out of step, AL left "
        "unknown for them",
        frame_before_read));
  }
  if (seen_before_sent > 0) {
    notes.push_back(fmt::format(
        "{} input(s) matched a frame the client captured before sending them: tags out of step, "
        "RTT left unknown for them",
        seen_before_sent));
  }
  if (unresolved_shown > 0) {
    notes.push_back(fmt::format(
        "{} matched input(s): the frame the client saw is not in frames.csv (no frame at or after the response "
        "frame with its tag and frame counter): seen_frame and wait_later_frame unknown",
        unresolved_shown));
  }
  attribute_remote_stages(t, out, notes);
  attribute_stream_stages(t, out, notes);
  const PartitionCounts parts = partition_rtt(out);
  if (parts.overlaps > 0) {
    notes.push_back(fmt::format(
        "{} input(s) had a stage begin before the previous one ended (the proxy or the client working "
        "on the frame before the app's swap call returned, or the proxy still encoding while it wrote): "
        "the overlap is counted in the earlier stage",
        parts.overlaps));
  }
  if (parts.out_of_order > 0) {
    notes.push_back(fmt::format(
        "{} input(s) have a timestamp earlier than the one before it on their path (inconsistent files): "
        "the stages around it are unknown and their time is in unattributed_ms",
        parts.out_of_order));
  }
  if (notes_out) notes_out->insert(notes_out->end(), notes.begin(), notes.end());
  return out;
}

}  // namespace pictor::analysis
