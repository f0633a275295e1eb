// The remote attribution rules of docs/proxy-hooks.md: the proxy's reads of the client's inputs
// are aligned with the inputs sent, x11vnc's deliveries with those reads, and the proxy's socket
// writes (by stream position), corks and encoder calls are tied to the client update that carried
// the frame the client saw.
#include "analysis/proxy_stages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "analysis/rtt.h"

namespace pictor::analysis {

namespace {

// The client stamps sent_ns around its socket write; on loopback the proxy's read can return a
// little before that stamp. A proxy read earlier than this before the send is someone else's input.
constexpr std::int64_t kSendStampSlackNs = 5'000'000;

bool is_key(const std::string& kind) { return kind.rfind("key_", 0) == 0; }
bool is_press(const std::string& kind) { return kind.size() > 6 && kind.compare(kind.size() - 6, 6, "_press") == 0; }

// Keys cannot be compared by detail: the proxy sees keysyms, the client file may hold X keycodes.
// Buttons carry the same number on both sides.
bool same_input(const SentInput& s, const ProxyInput& p) {
  if (is_key(s.kind) != p.key || is_press(s.kind) != p.down) return false;
  return p.key || s.detail == p.detail;
}

bool same_input(const ProxyInput& p, const ProxyDelivery& d) {
  if (p.key != d.key || p.down != d.down) return false;
  return p.key || p.detail == d.detail;
}

// The connection Pictor's client used: the fd with the most inputs (or the last one connected).
int client_fd(const ProxyEvents& p, std::vector<std::string>& notes) {
  std::map<int, std::size_t> per_fd;
  for (const ProxyInput& in : p.inputs) ++per_fd[in.fd];
  int fd = p.connections.empty() ? -1 : p.connections.back().fd;
  std::size_t best = 0;
  for (const auto& [f, n] : per_fd)
    if (n > best) {
      best = n;
      fd = f;
    }
  if (p.connections.size() > 1) {
    notes.push_back(fmt::format("the proxy had {} client connections; stages use fd {} (the one that sent inputs); "
                                "encoder records carry no fd, so another client's encoding may be counted in CP",
                                p.connections.size(), fd));
  }
  return fd;
}

// For each sent input, its proxy read (index into `inputs`) or -1: the reads are the sent inputs in
// order (TCP keeps it), so a greedy walk by kind finds them; reads long before a send are foreign.
std::vector<long> align_proxy_reads(const std::vector<SentInput>& sent, const std::vector<ProxyInput>& inputs,
                                    std::vector<std::string>& notes) {
  std::vector<long> read_of(sent.size(), -1);
  std::size_t j = 0, foreign = 0, missing = 0;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    while (j < inputs.size() && inputs[j].read_ns < sent[i].sent_ns - kSendStampSlackNs) {
      ++foreign;
      ++j;
    }
    std::size_t k = j;
    while (k < inputs.size() && !same_input(sent[i], inputs[k])) ++k;
    if (k == inputs.size()) {
      ++missing;
      continue;
    }
    foreign += k - j;
    read_of[i] = static_cast<long>(k);
    j = k + 1;
  }
  if (foreign > 0)
    notes.push_back(fmt::format("{} input(s) the proxy read match no input Pictor's client sent (another client, or "
                                "kinds disagree); skipped",
                                foreign));
  if (missing > 0)
    notes.push_back(fmt::format("{} sent input(s) have no read in proxy_events.csv: CS unknown for them", missing));
  return read_of;
}

const AppFrame* frame_numbered(const std::vector<AppFrame>& frames, std::optional<std::uint64_t> number) {
  if (!number) return nullptr;
  const auto it = std::lower_bound(frames.begin(), frames.end(), *number,
                                   [](const AppFrame& f, std::uint64_t n) { return f.frame < n; });
  return it != frames.end() && it->frame == *number ? &*it : nullptr;
}

// What the proxy wrote to the client's connection, in stream order: its writes with the stream
// position of each one's first byte, and its cork calls.
struct Stream {
  std::vector<ProxyWrite> writes;
  std::vector<std::int64_t> offset;  // offset[i]: bytes written before writes[i]
  std::vector<ProxyCork> corks;
};

Stream client_stream(const RttTimeline& t, int fd) {
  // The connection's writes start at its accept; an fd number reused by an earlier connection
  // is told apart by the connect time (the last accept of fd before the first update).
  std::int64_t since = std::numeric_limits<std::int64_t>::min();
  const std::int64_t first_update = t.updates.empty() ? std::numeric_limits<std::int64_t>::max() : t.updates.front().start_ns;
  for (const ProxyConnection& c : t.proxy.connections)
    if (c.fd == fd && (c.ns <= first_update || since == std::numeric_limits<std::int64_t>::min())) since = c.ns;
  Stream s;
  for (const ProxyWrite& w : t.proxy.writes)
    if (w.fd == fd && w.start_ns >= since) s.writes.push_back(w);
  std::sort(s.writes.begin(), s.writes.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  std::int64_t at = 0;
  for (const ProxyWrite& w : s.writes) {
    s.offset.push_back(at);
    at += w.bytes;
  }
  for (const ProxyCork& c : t.proxy.corks)
    if (c.fd == fd && c.ns >= since) s.corks.push_back(c);
  std::sort(s.corks.begin(), s.corks.end(), [](const auto& a, const auto& b) { return a.ns < b.ns; });
  return s;
}

// Index of the last write that started at or before t, or -1.
long last_write_before(const std::vector<ProxyWrite>& writes, std::int64_t t) {
  const auto it = std::upper_bound(writes.begin(), writes.end(), t,
                                   [](std::int64_t v, const ProxyWrite& w) { return v < w.start_ns; });
  return static_cast<long>(it - writes.begin()) - 1;
}

// Index of the write that holds stream byte `pos`, or -1.
long write_holding(const Stream& s, std::int64_t pos) {
  const auto it = std::upper_bound(s.offset.begin(), s.offset.end(), pos);
  if (it == s.offset.begin()) return -1;
  const auto i = static_cast<std::size_t>(it - s.offset.begin()) - 1;
  return pos < s.offset[i] + s.writes[i].bytes ? static_cast<long>(i) : -1;
}

struct Counters {
  std::size_t negative_cs = 0, no_delivery = 0, negative_ps = 0;
  std::size_t no_update = 0, no_write = 0, offset_mismatch = 0, no_encoder = 0, before_frame = 0;
  std::size_t by_time = 0, corked = 0;
};

// The first and last write of update `u` (indices into s.writes), found by the stream positions
// of its bytes, or in files without them by time: from the first write after the previous update
// was written to the last write that began before u ended at the client.
std::optional<std::pair<std::size_t, std::size_t>> update_writes(const RttTimeline& t, const Stream& s,
                                                                 std::vector<ClientUpdate>::const_iterator u,
                                                                 Counters& c) {
  if (u->offset && u->bytes > 0) {
    const long first = write_holding(s, *u->offset), last = write_holding(s, *u->offset + u->bytes - 1);
    // The proxy cannot have written the update after the client had it all.
    if (first < 0 || last < 0 || s.writes[static_cast<std::size_t>(last)].start_ns > u->end_ns) {
      ++c.offset_mismatch;
      return std::nullopt;
    }
    return std::pair{static_cast<std::size_t>(first), static_cast<std::size_t>(last)};
  }
  ++c.by_time;
  const long last = last_write_before(s.writes, u->end_ns);
  const long prev = u != t.updates.begin() ? last_write_before(s.writes, std::prev(u)->end_ns) : -1;
  if (last < 0 || prev + 1 > last) {
    ++c.no_write;
    return std::nullopt;
  }
  return std::pair{static_cast<std::size_t>(prev + 1), static_cast<std::size_t>(last)};
}

// The proxy's part of one matched input's path: when it began the update that carried the frame
// the client saw (proxy_start) and when that update's first byte could leave it (proxy_sent).
// Corked (Xvnc): from the cork that opened the update to the uncork that released it. Otherwise:
// from the first encoder call of the update to the later of its last encoder call's end and its
// first write (a proxy that writes while still encoding keeps encoding in CP).
void update_bracket(const RttTimeline& t, const Stream& s, const std::vector<ProxyEncoderCall>& encoders,
                    MatchedInput& m, Counters& c) {
  const auto& ups = t.updates;
  const auto u = std::lower_bound(ups.begin(), ups.end(), *m.seen_ns,
                                  [](const ClientUpdate& x, std::int64_t v) { return x.end_ns < v; });
  if (u == ups.end() || u->end_ns != *m.seen_ns) {
    ++c.no_update;
    return;
  }
  const auto range = update_writes(t, s, u, c);
  if (!range) return;
  const ProxyWrite& first = s.writes[range->first];
  const ProxyWrite& last = s.writes[range->second];
  // The update shows a frame: the proxy cannot have begun encoding it before that frame's swap.
  const AppFrame* shown = frame_numbered(t.frames, m.seen_frame);
  const std::int64_t frame_swap = shown ? shown->swap_ns : m.response_swap_ns.value_or(std::numeric_limits<std::int64_t>::min());

  const auto cork = std::upper_bound(s.corks.begin(), s.corks.end(), first.start_ns,
                                     [](std::int64_t v, const ProxyCork& k) { return v < k.ns; });
  const bool corked = cork != s.corks.begin() && std::prev(cork)->on;
  std::int64_t lo = frame_swap;
  if (corked) {
    lo = std::max(lo, std::prev(cork)->ns);
  } else if (range->first > 0) {
    lo = std::max(lo, s.writes[range->first - 1].end_ns);
  }
  std::optional<std::int64_t> first_start, last_end;
  for (auto e = std::lower_bound(encoders.begin(), encoders.end(), lo,
                                 [](const ProxyEncoderCall& x, std::int64_t v) { return x.start_ns < v; });
       e != encoders.end() && e->start_ns < last.start_ns; ++e) {
    if (e->end_ns > last.start_ns) continue;
    if (!first_start) first_start = e->start_ns;
    last_end = std::max(last_end.value_or(e->end_ns), e->end_ns);
  }
  std::optional<std::int64_t> start, sent;
  if (corked) {
    ++c.corked;
    start = std::prev(cork)->ns;
    const auto off = std::find_if(cork, s.corks.end(), [](const ProxyCork& k) { return !k.on; });
    sent = off != s.corks.end() ? off->ns : std::max(first.start_ns, last_end.value_or(first.start_ns));
  } else {
    start = first_start;
    sent = std::max(first.start_ns, last_end.value_or(first.start_ns));
    if (!first_start) ++c.no_encoder;
  }
  if (start && *start < frame_swap) {
    ++c.before_frame;  // the writes found belong to an update of an older frame
    return;
  }
  m.path.proxy_start_ns = start;
  m.path.proxy_sent_ns = sent;
}

}  // namespace

void attribute_remote_stages(const RttTimeline& t, std::span<MatchedInput> inputs, std::vector<std::string>& notes) {
  const bool remote = t.have_updates || t.have_proxy;
  if (!remote) return;
  notes.push_back("FC unknown: the app renders with llvmpipe into client memory, so there is no GPU-to-CPU "
                  "readback to time");
  for (MatchedInput& m : inputs) m.path.remote = true;

  if (!t.have_proxy) {
    notes.push_back("proxy_events.csv absent: CS, SP, wait_proxy, CP and SS unknown; their time is in "
                    "unattributed_ms");
    return;
  }

  Counters c;
  const int fd = client_fd(t.proxy, notes);
  std::vector<ProxyInput> reads;
  for (const ProxyInput& in : t.proxy.inputs)
    if (in.fd == fd) reads.push_back(in);
  const std::vector<long> read_of = align_proxy_reads(t.sent, reads, notes);
  const auto& deliveries = t.proxy.deliveries;
  const bool delivers = !deliveries.empty();
  if (!delivers) {
    notes.push_back("the proxy recorded no deliveries (Xvnc injects inside its own binary): SP is not on the path, "
                    "and PS starts at the proxy's read, so PS includes SP");
  }
  std::size_t next_delivery = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    MatchedInput& m = inputs[i];
    m.path.delivers = delivers;
    if (read_of[i] < 0) continue;
    const ProxyInput& p = reads[static_cast<std::size_t>(read_of[i])];
    m.path.proxy_read_ns = p.read_ns;
    if (p.read_ns < m.input.sent_ns) ++c.negative_cs;
    std::int64_t handed_over = p.read_ns;
    if (delivers) {
      std::size_t d = next_delivery;
      while (d < deliveries.size() && (deliveries[d].start_ns < p.read_ns || !same_input(p, deliveries[d]))) ++d;
      if (d == deliveries.size()) {
        ++c.no_delivery;
        continue;
      }
      next_delivery = d + 1;
      m.path.delivered_ns = deliveries[d].end_ns;
      handed_over = deliveries[d].end_ns;
    }
    if (m.read_ns && *m.read_ns < handed_over) ++c.negative_ps;
  }

  if (t.have_updates) {
    const Stream s = client_stream(t, fd);
    std::vector<ProxyEncoderCall> encoders = t.proxy.encoder_calls;
    std::sort(encoders.begin(), encoders.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
    for (MatchedInput& m : inputs)
      if (m.seen_ns) update_bracket(t, s, encoders, m, c);
  } else if (!t.have_stream) {
    notes.push_back("client_updates.csv absent: wait_proxy, CP and SS unknown (no update to tie the proxy's work to)");
  }

  if (c.negative_cs)
    notes.push_back(fmt::format("{} input(s) were read by the proxy before the client's send stamp: CS unknown for them",
                                c.negative_cs));
  if (c.no_delivery)
    notes.push_back(fmt::format("{} input(s) read by the proxy have no matching delivery: SP and PS unknown for them",
                                c.no_delivery));
  if (c.negative_ps)
    notes.push_back(fmt::format("{} input(s) were read by the app before the proxy handed them over: PS unknown for them",
                                c.negative_ps));
  if (c.no_update)
    notes.push_back(fmt::format("{} matched input(s) have no client update ending at their seen_ns: wait_proxy, CP and "
                                "SS unknown",
                                c.no_update));
  if (c.by_time)
    notes.push_back(fmt::format("{} update(s) were tied to the proxy's writes by time (client_updates.csv without "
                                "stream offsets, written by an older Pictor)",
                                c.by_time));
  if (c.no_write)
    notes.push_back(fmt::format("{} input(s) were answered by an update that follows no proxy write: wait_proxy, CP "
                                "and SS unknown",
                                c.no_write));
  if (c.offset_mismatch)
    notes.push_back(fmt::format("{} update(s) lie outside the bytes the proxy was seen to write (records dropped, or "
                                "writes the hooks do not see): wait_proxy, CP and SS unknown for them",
                                c.offset_mismatch));
  if (c.before_frame)
    notes.push_back(fmt::format("{} update(s) began before the frame they show was swapped (tied to the wrong "
                                "writes): wait_proxy, CP and SS unknown for them",
                                c.before_frame));
  if (c.no_encoder)
    notes.push_back(fmt::format("{} input(s) were answered by an update with no encoder call (solid, raw or "
                                "uncompressed rectangles only) on an uncorked socket: the start of the proxy's work "
                                "is unknown, so wait_proxy and CP are unknown and their time is in unattributed_ms",
                                c.no_encoder));
}

}  // namespace pictor::analysis
