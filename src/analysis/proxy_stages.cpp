// The remote attribution rules of docs/proxy-hooks.md: the proxy's reads of the client's inputs
// are aligned with the inputs sent, x11vnc's deliveries with those reads, and the proxy's JPEG
// compressions and socket writes are tied to the client update that carried the response frame.
#include "analysis/proxy_stages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "analysis/rtt.h"

namespace pictor::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ms_between(std::int64_t from_ns, std::int64_t to_ns) { return static_cast<double>(to_ns - from_ns) / 1e6; }

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
  int fd = p.connections.empty() ? -1 : p.connections.back();
  std::size_t best = 0;
  for (const auto& [f, n] : per_fd)
    if (n > best) {
      best = n;
      fd = f;
    }
  if (p.connections.size() > 1) {
    notes.push_back(fmt::format("the proxy had {} client connections; stages use fd {} (the one that sent inputs); "
                                "JPEG records carry no fd, so another client's compressions may be counted in CP",
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

// Index of the last write that started at or before t, or -1.
long last_write_before(const std::vector<ProxyWrite>& writes, std::int64_t t) {
  const auto it = std::upper_bound(writes.begin(), writes.end(), t,
                                   [](std::int64_t v, const ProxyWrite& w) { return v < w.start_ns; });
  return static_cast<long>(it - writes.begin()) - 1;
}

struct Counters {
  std::size_t negative_cs = 0, no_delivery = 0, negative_ps = 0, no_update = 0, no_write = 0, no_jpeg = 0;
};

// CP and SS of one matched input: see the header of docs/proxy-hooks.md's "Compression and sending".
void compression_and_send(const RttTimeline& t, const std::vector<ProxyWrite>& writes,
                          const std::vector<ProxyCompression>& jpegs, MatchedInput& m, Counters& c) {
  const auto& ups = t.updates;
  const auto it = std::lower_bound(ups.begin(), ups.end(), *m.seen_ns,
                                   [](const ClientUpdate& u, std::int64_t v) { return u.end_ns < v; });
  if (it == ups.end() || it->end_ns != *m.seen_ns) {
    ++c.no_update;
    return;
  }
  const long last = last_write_before(writes, it->end_ns);
  if (last < 0) {
    ++c.no_write;
    return;
  }
  const ProxyWrite& last_write = writes[static_cast<std::size_t>(last)];
  // Compressions of this update began after the frame it shows was swapped and after the previous
  // update was written out, and ended before the update's last write began.
  const AppFrame* shown = frame_numbered(t.frames, m.seen_frame);
  std::int64_t lower = shown ? shown->swap_ns : m.response_swap_ns.value_or(std::numeric_limits<std::int64_t>::min());
  if (it != ups.begin()) {
    const long prev = last_write_before(writes, std::prev(it)->end_ns);
    if (prev >= 0) lower = std::max(lower, writes[static_cast<std::size_t>(prev)].end_ns);
  }
  std::int64_t first_start = 0, last_end = 0;
  std::size_t n = 0;
  auto j = std::lower_bound(jpegs.begin(), jpegs.end(), lower,
                            [](const ProxyCompression& p, std::int64_t v) { return p.start_ns < v; });
  for (; j != jpegs.end() && j->start_ns < last_write.start_ns; ++j) {
    if (j->end_ns > last_write.start_ns) continue;
    if (n++ == 0) first_start = j->start_ns;
    last_end = std::max(last_end, j->end_ns);
  }
  if (n == 0) {
    ++c.no_jpeg;
    return;
  }
  m.cp_ms = ms_between(first_start, last_end);
  m.ss_ms = ms_between(last_end, it->end_ns);
}

}  // namespace

void attribute_remote_stages(const RttTimeline& t, std::span<MatchedInput> inputs, std::vector<std::string>& notes) {
  const bool remote = t.have_updates || t.have_proxy;
  if (!remote) return;
  notes.push_back("FC unknown: the app renders with llvmpipe into client memory, so there is no GPU-to-CPU "
                  "readback to time");

  // AS for a remote adapter: the app's put-image into the X server happens inside its swap call.
  for (MatchedInput& m : inputs) {
    const AppFrame* f = frame_numbered(t.frames, m.response_frame);
    m.as_ms = f ? f->swap_call_ms : kNaN;
  }
  notes.push_back("remote adapter: AS is the response frame's swap call (the put-image into the X server), not seen - "
                  "swap as for local");

  if (!t.have_proxy) {
    notes.push_back("proxy_events.csv absent: CS, SP, CP and SS unknown; PS = read - sent covers CS + SP + PS");
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
    notes.push_back("the proxy recorded no deliveries (Xvnc injects inside its own binary): SP unknown, PS = app read "
                    "- proxy read, so PS includes SP");
  }
  std::size_t next_delivery = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    MatchedInput& m = inputs[i];
    m.ps_ms = kNaN;  // redefined below for remote sessions
    if (read_of[i] < 0) continue;
    const ProxyInput& p = reads[static_cast<std::size_t>(read_of[i])];
    const double cs = ms_between(m.input.sent_ns, p.read_ns);
    if (cs >= 0) {
      m.cs_ms = cs;
    } else {
      ++c.negative_cs;
    }
    std::int64_t handed_over = p.read_ns;
    if (delivers) {
      std::size_t d = next_delivery;
      while (d < deliveries.size() && (deliveries[d].start_ns < p.read_ns || !same_input(p, deliveries[d]))) ++d;
      if (d == deliveries.size()) {
        ++c.no_delivery;
        continue;
      }
      next_delivery = d + 1;
      m.sp_ms = ms_between(p.read_ns, deliveries[d].end_ns);
      handed_over = deliveries[d].end_ns;
    }
    if (m.read_ns) {
      const double ps = ms_between(handed_over, *m.read_ns);
      if (ps >= 0) {
        m.ps_ms = ps;
      } else {
        ++c.negative_ps;
      }
    }
  }

  if (t.have_updates) {
    std::vector<ProxyWrite> writes;
    for (const ProxyWrite& w : t.proxy.writes)
      if (w.fd == fd) writes.push_back(w);
    std::sort(writes.begin(), writes.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
    std::vector<ProxyCompression> jpegs = t.proxy.compressions;
    std::sort(jpegs.begin(), jpegs.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
    for (MatchedInput& m : inputs)
      if (m.seen_ns) compression_and_send(t, writes, jpegs, m, c);
  } else {
    notes.push_back("client_updates.csv absent: CP and SS unknown (no update to tie the compressions to)");
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
    notes.push_back(fmt::format("{} matched input(s) have no client update ending at their seen_ns: CP and SS unknown",
                                c.no_update));
  if (c.no_write)
    notes.push_back(fmt::format("{} input(s) were answered by an update that follows no proxy write: CP and SS unknown",
                                c.no_write));
  if (c.no_jpeg)
    notes.push_back(fmt::format("{} input(s) were answered by an update without a JPEG compression (solid, CopyRect, "
                                "zlib or raw rectangles only): CP and SS unknown for them",
                                c.no_jpeg));
}

}  // namespace pictor::analysis
