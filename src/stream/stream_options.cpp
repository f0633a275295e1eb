#include "stream/stream_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "core/error.h"

namespace pictor::stream {

namespace {

int parse_int(std::string_view key, std::string_view value, int lo, int hi) {
  int v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < lo || v > hi)
    throw UsageError(fmt::format("invalid --stream {} '{}' (expected a whole number {}..{})", key, value, lo, hi));
  return v;
}

// 8mbit, 2500kbit, 2500 (kbit/s): x264enc takes kbit/s.
int parse_bitrate_kbit(std::string_view value) {
  std::string_view number = value;
  int scale = 1;
  if (value.ends_with("mbit")) {
    number = value.substr(0, value.size() - 4);
    scale = 1000;
  } else if (value.ends_with("kbit")) {
    number = value.substr(0, value.size() - 4);
  }
  int v = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || end != number.data() + number.size() || number.empty())
    throw UsageError(fmt::format("invalid --stream bitrate '{}' (expected e.g. 8mbit or 2500kbit)", value));
  const long kbit = static_cast<long>(v) * scale;
  if (kbit < 100 || kbit > 200'000)
    throw UsageError(fmt::format("invalid --stream bitrate '{}' (must be 100kbit..200mbit)", value));
  return static_cast<int>(kbit);
}

}  // namespace

const std::vector<StreamOptionInfo>& stream_option_table() {
  static const std::vector<StreamOptionInfo> table{
      {"bitrate", "8mbit", "x264 target bitrate", "100kbit..200mbit (kbit, mbit, or a number of kbit/s)"},
      {"preset", "ultrafast", "x264 speed preset", "ultrafast, superfast, veryfast, faster, fast, medium"},
      {"gop", "60", "keyframe interval in frames (a late or lossy client restarts at the next one)", "1..600"},
      {"transport", "udp", "how the RTP packets travel", "udp, tcp"},
      {"fps", "60", "frames per second ximagesrc captures", "1..240"},
  };
  return table;
}

const std::vector<std::string_view>& x264_presets() {
  static const std::vector<std::string_view> presets{"ultrafast", "superfast", "veryfast", "faster", "fast", "medium"};
  return presets;
}

const char* transport_name(Transport t) { return t == Transport::udp ? "udp" : "tcp"; }

StreamOptions parse_stream_options(std::string_view text) {
  StreamOptions o;
  if (text.empty()) return o;
  std::vector<std::string_view> seen;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view part = text.substr(begin, comma - begin);
    begin = comma + 1;
    const auto eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == part.size())
      throw UsageError(fmt::format("invalid --stream part '{}' (expected key=value with keys bitrate, preset, gop, "
                                   "transport, fps)", part));
    const std::string_view key = part.substr(0, eq), value = part.substr(eq + 1);
    const auto& table = stream_option_table();
    if (std::none_of(table.begin(), table.end(), [&](const StreamOptionInfo& i) { return i.name == key; }))
      throw UsageError(fmt::format("unknown --stream key '{}' (use bitrate, preset, gop, transport, fps)", key));
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      throw UsageError(fmt::format("--stream key '{}' given twice", key));
    seen.push_back(key);
    if (key == "bitrate") {
      o.bitrate_kbit = parse_bitrate_kbit(value);
    } else if (key == "preset") {
      const auto& p = x264_presets();
      if (std::find(p.begin(), p.end(), value) == p.end())
        throw UsageError(fmt::format("invalid --stream preset '{}' (use ultrafast, superfast, veryfast, faster, fast "
                                     "or medium)", value));
      o.preset = std::string(value);
    } else if (key == "gop") {
      o.gop = parse_int(key, value, 1, 600);
    } else if (key == "fps") {
      o.fps = parse_int(key, value, 1, 240);
    } else if (value == "udp" || value == "tcp") {
      o.transport = value == "udp" ? Transport::udp : Transport::tcp;
    } else {
      throw UsageError(fmt::format("invalid --stream transport '{}' (use udp or tcp{})", value,
                                   value == "rtsp" ? "; rtsp is not built" : ""));
    }
  }
  return o;
}

std::string to_string(const StreamOptions& o) {
  return fmt::format("bitrate={}kbit,preset={},gop={},transport={},fps={}", o.bitrate_kbit, o.preset, o.gop,
                     transport_name(o.transport), o.fps);
}

}  // namespace pictor::stream
