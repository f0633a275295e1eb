// The stream rules of stream_stages.h: marker-keyed joins of server captures, client decodes and
// the app's frames, all on the one machine's CLOCK_MONOTONIC.
#include "analysis/stream_stages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "analysis/csv.h"
#include "analysis/rtt.h"
#include "core/files.h"

namespace pictor::analysis {

namespace {

namespace fs = std::filesystem;

std::optional<std::int64_t> opt_int(const CsvRow& row, const CsvHeader& h, std::size_t c) {
  if (row.fields[c].empty()) return std::nullopt;
  return field_int64(row, h, c);
}

std::optional<std::uint32_t> opt_u32(const CsvRow& row, const CsvHeader& h, std::size_t c) {
  const auto v = opt_int(row, h, c);
  if (!v) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

// Wire marker of a full tag / frame number.
std::uint32_t wire_tag(std::uint64_t tag) { return static_cast<std::uint32_t>(tag & 0xfff); }
std::uint32_t wire_frame(std::uint64_t frame) { return static_cast<std::uint32_t>(frame & 0xff); }

bool same_marker(const StreamFrame& f, std::uint32_t tag, std::uint32_t frame) {
  return f.marker_tag && f.marker_frame && *f.marker_tag == tag && *f.marker_frame == frame;
}

double fps(const std::vector<std::int64_t>& times) {
  if (times.size() < 2 || times.back() <= times.front()) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(times.size() - 1) / (static_cast<double>(times.back() - times.front()) / 1e9);
}

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json read_json(const fs::path& p) {
  if (!fs::exists(p)) return nullptr;
  try {
    return nlohmann::json::parse(files::read_input_file(p.string()));
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

StreamFrame stream_frame_of(const CsvRow& row, const CsvHeader& h) {
  StreamFrame f;
  f.captured_ns = opt_int(row, h, h.require("captured_ns"));
  f.encode_in_ns = opt_int(row, h, h.require("encode_in_ns"));
  f.encode_out_ns = field_int64(row, h, h.require("encode_out_ns"));
  f.bytes = field_int64(row, h, h.require("bytes"));
  f.keyframe = field_int64(row, h, h.require("keyframe")) != 0;
  f.marker_tag = opt_u32(row, h, h.require("marker_tag"));
  f.marker_frame = opt_u32(row, h, h.require("marker_frame"));
  return f;
}

StreamReceived stream_received_of(const CsvRow& row, const CsvHeader& h) {
  StreamReceived r;
  r.decode_in_ns = opt_int(row, h, h.require("decode_in_ns"));
  r.decoded_ns = field_int64(row, h, h.require("decoded_ns"));
  r.marker_tag = opt_u32(row, h, h.require("marker_tag"));
  r.marker_frame = opt_u32(row, h, h.require("marker_frame"));
  return r;
}

void attribute_stream_stages(const RttTimeline& t, std::span<MatchedInput> inputs, std::vector<std::string>& notes) {
  if (!t.have_stream) return;
  std::size_t no_capture = 0;
  for (MatchedInput& m : inputs) {
    if (m.status != MatchStatus::matched || !m.seen_ns || !m.seen_frame) continue;
    const auto shown = std::lower_bound(t.frames.begin(), t.frames.end(), *m.seen_frame,
                                        [](const AppFrame& f, std::uint64_t n) { return f.frame < n; });
    if (shown == t.frames.end() || shown->frame != *m.seen_frame) {
      ++no_capture;
      continue;
    }
    const std::uint32_t tag = wire_tag(shown->tag), frame = wire_frame(shown->frame);
    const auto f = std::find_if(t.stream_frames.begin(), t.stream_frames.end(), [&](const StreamFrame& s) {
      return same_marker(s, tag, frame) && s.captured_ns && *s.captured_ns >= shown->swap_ns;
    });
    if (f == t.stream_frames.end() || f->encode_out_ns > *m.seen_ns) {
      ++no_capture;
      continue;
    }
    m.path.proxy_start_ns = f->captured_ns;
    m.path.proxy_sent_ns = f->encode_out_ns;
  }
  notes.push_back("stream: wait_proxy is the wait for ximagesrc's capture (shown frame's swap return → capture), "
                  "CP the conversion and x264 encoding (capture → encoder output), SS packetising, network, "
                  "depacketising and decoding (encoder output → decoded at the client)");
  if (no_capture)
    notes.push_back(fmt::format("{} matched input(s): no server capture of the frame the client saw in "
                                "stream_frames.csv: wait_proxy, CP and SS unknown for them",
                                no_capture));
}

nlohmann::json stream_summary(const std::string& session_dir, const RttTimeline& t) {
  nlohmann::json out;
  std::vector<std::int64_t> captured, encoded, decoded;
  std::vector<double> convert_ms, encode_ms, network_ms, decode_ms, capture_to_decoded_ms;
  std::set<std::uint64_t> app_in_captures;
  std::map<std::pair<std::uint32_t, std::uint32_t>, const StreamFrame*> first_capture;
  for (const StreamFrame& f : t.stream_frames) {
    if (f.captured_ns) captured.push_back(*f.captured_ns);
    encoded.push_back(f.encode_out_ns);
    if (f.captured_ns && f.encode_in_ns) convert_ms.push_back(static_cast<double>(*f.encode_in_ns - *f.captured_ns) / 1e6);
    if (f.encode_in_ns) encode_ms.push_back(static_cast<double>(f.encode_out_ns - *f.encode_in_ns) / 1e6);
    if (f.marker_tag && f.marker_frame) first_capture.emplace(std::pair{*f.marker_tag, *f.marker_frame}, &f);
  }
  std::sort(captured.begin(), captured.end());
  // Per decoded frame: the network and decode times, joined to the first capture of its frame.
  std::size_t damaged = 0, late = 0;
  std::optional<std::uint32_t> last_frame;
  std::set<std::pair<std::uint32_t, std::uint32_t>> received_markers;
  for (const StreamReceived& r : t.stream_received) {
    decoded.push_back(r.decoded_ns);
    if (r.decode_in_ns) decode_ms.push_back(static_cast<double>(r.decoded_ns - *r.decode_in_ns) / 1e6);
    if (!r.marker_tag || !r.marker_frame) {
      ++damaged;  // the marker did not read: a frame damaged by loss, or a window not drawn yet
      continue;
    }
    // A frame older than one already shown arrived late (frame counters wrap at 256).
    if (last_frame && ((*r.marker_frame - *last_frame) & 0xff) > 128) ++late;
    last_frame = *r.marker_frame;
    const auto key = std::pair{*r.marker_tag, *r.marker_frame};
    if (!received_markers.insert(key).second) continue;
    const auto c = first_capture.find(key);
    if (c == first_capture.end() || c->second->encode_out_ns > r.decoded_ns) continue;
    if (r.decode_in_ns) network_ms.push_back(static_cast<double>(*r.decode_in_ns - c->second->encode_out_ns) / 1e6);
    if (c->second->captured_ns)
      capture_to_decoded_ms.push_back(static_cast<double>(r.decoded_ns - *c->second->captured_ns) / 1e6);
  }
  // Distinct app frames each step had, within the span the client received.
  std::size_t captured_distinct = first_capture.size();
  std::size_t received_distinct = received_markers.size();
  out["captured_fps"] = number_or_null(fps(captured));
  out["encoded_fps"] = number_or_null(fps(encoded));
  out["client_fps"] = number_or_null(fps(decoded));
  out["frames"] = {{"captured", t.stream_frames.size()},
                   {"captured_distinct_app_frames", captured_distinct},
                   {"decoded", t.stream_received.size()},
                   {"decoded_distinct_app_frames", received_distinct},
                   {"decoded_unreadable", damaged},
                   {"decoded_late", late}};
  // App frames no capture caught: ximagesrc samples the screen at its rate, so an app faster than
  // it loses frames here by design.
  if (!t.frames.empty() && !captured.empty()) {
    std::size_t in_span = 0;
    for (const AppFrame& f : t.frames)
      if (f.swap_ns >= captured.front() && f.swap_ns <= captured.back()) ++in_span;
    out["frames"]["app_frames_during_capture"] = in_span;
    out["frames"]["app_frames_not_captured"] = in_span - std::min(in_span, captured_distinct);
  } else {
    out["frames"]["app_frames_during_capture"] = nullptr;
    out["frames"]["app_frames_not_captured"] = nullptr;
  }
  // Captured frames the client never decoded, from its first decoded frame on (it joins late).
  std::size_t never = 0;
  if (!t.stream_received.empty()) {
    const std::int64_t from = t.stream_received.front().decoded_ns, to = t.stream_received.back().decoded_ns;
    for (const auto& [key, f] : first_capture)
      if (f->encode_out_ns >= from && f->encode_out_ns < to && !received_markers.count(key)) ++never;
    out["frames"]["captured_not_decoded"] = never;
  } else {
    out["frames"]["captured_not_decoded"] = nullptr;
  }
  out["per_frame_ms"] = {{"convert", distribution_json(convert_ms)},
                         {"encode", distribution_json(encode_ms)},
                         {"network", distribution_json(network_ms)},
                         {"decode", distribution_json(decode_ms)},
                         {"capture_to_decoded", distribution_json(capture_to_decoded_ms)}};
  const fs::path dir(session_dir);
  out["server"] = read_json(dir / "stream_server.json");
  out["client"] = read_json(dir / "stream_client.json");
  std::vector<std::string> notes;
  if (out["server"].is_null()) notes.push_back("stream_server.json absent: the server's counts are unknown");
  if (out["client"].is_null()) notes.push_back("stream_client.json absent: packet and decoder counts are unknown");
  out["notes"] = notes;
  return out;
}

}  // namespace pictor::analysis
