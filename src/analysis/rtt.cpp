// The matching rule (DESIGN §3): sent inputs ↔ the app's reads ↔ response frames ↔ client frames.
#include "analysis/rtt.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pictor::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ms_between(std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e6;
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
  std::vector<MatchedInput> out;
  out.reserve(t.sent.size());
  for (std::size_t i = 0; i < t.sent.size(); ++i) {
    MatchedInput m{t.sent[i], MatchStatus::not_seen, {}, {}, {}, {}, {}, {},
                   kNaN, kNaN, kNaN, kNaN, kNaN};
    const SentInput& s = t.sent[i];
    if (read_of[i] >= 0) {
      const ReadInput& r = t.reads[static_cast<std::size_t>(read_of[i])];
      m.app_tag = r.tag;
      m.read_ns = r.read_ns;
      m.ps_ms = ms_between(s.sent_ns, r.read_ns);
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
        if (m.read_ns) {
          if (f.swap_ns < *m.read_ns) {
            ++frame_before_read;  // inconsistent files: say so, give no AL
          } else {
            m.al_ms = ms_between(*m.read_ns, f.swap_ns);
          }
        }
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
        m.rtt_ms = ms_between(s.sent_ns, c.seen_ns);
        if (m.response_swap_ns && c.seen_ns >= *m.response_swap_ns)
          m.as_ms = ms_between(*m.response_swap_ns, c.seen_ns);
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
  attribute_remote_stages(t, out, notes);
  if (notes_out) notes_out->insert(notes_out->end(), notes.begin(), notes.end());
  return out;
}

}  // namespace pictor::analysis
