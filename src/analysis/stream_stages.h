// Stream-adapter attribution (docs/streaming.md): the server's per-frame probe stamps
// (stream_frames.csv) tied to the frames the client decoded by the marker each carries, giving
// wait_proxy (the wait for the capture), CP (convert + encode) and SS (packetise, network,
// depacketise, decode) of each input, and the stream's per-frame figures and drops.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/csv.h"

namespace pictor::analysis {

struct RttTimeline;
struct MatchedInput;

// stream_frames.csv: one frame the server captured and encoded. Marker values are the wire's
// (12-bit tag, 8-bit frame counter); nullopt where the capture carried no readable marker.
struct StreamFrame {
  std::optional<std::int64_t> captured_ns, encode_in_ns;
  std::int64_t encode_out_ns = 0;
  std::int64_t bytes = 0;
  bool keyframe = false;
  std::optional<std::uint32_t> marker_tag, marker_frame;
};

// stream_received.csv: one frame the client decoded.
struct StreamReceived {
  std::optional<std::int64_t> decode_in_ns;
  std::int64_t decoded_ns = 0;
  std::optional<std::uint32_t> marker_tag, marker_frame;
};

// One row of stream_frames.csv / stream_received.csv; the session loader (rtt_files.cpp) reads
// both files, either may be absent, through the same reader as every other session CSV.
StreamFrame stream_frame_of(const CsvRow& row, const CsvHeader& header);
StreamReceived stream_received_of(const CsvRow& row, const CsvHeader& header);

// Sets proxy_start_ns (capture) and proxy_sent_ns (encoded) of each matched input from the first
// capture of the frame the client saw (same marker, captured after that frame's swap, encoded
// before the client had it). Leaves sessions without stream_frames.csv as they are.
void attribute_stream_stages(const RttTimeline& t, std::span<MatchedInput> inputs, std::vector<std::string>& notes);

// summary.json `stream`: captured, encoded and client FPS; per-frame convert, encode, network
// (encoded → decoder input) and decode times; frames dropped at each step; the server's and the
// client's counts (stream_server.json, stream_client.json). Unknown figures are null with a note.
nlohmann::json stream_summary(const std::string& session_dir, const RttTimeline& t);

}  // namespace pictor::analysis
