#include "stream/stream_options.h"

#include <fmt/format.h>

#include <cmath>

namespace pictor::stream {

const std::vector<std::string_view>& x264_presets() {
  static const std::vector<std::string_view> presets{"ultrafast", "superfast", "veryfast", "faster", "fast", "medium"};
  return presets;
}

const options::OptionSet& stream_option_set() {
  static const options::OptionSet set = [] {
    std::vector<std::string> presets(x264_presets().begin(), x264_presets().end());
    return options::OptionSet(
        "--stream",
        {options::bit_rate("bitrate", "x264 target bitrate; a bare number is kbit/s, x264's own unit")
             .within(100e3, 200e6)
             .bare_number_in("kbit")
             .or_default("8mbit"),
         options::word("preset", std::move(presets), "x264 speed preset").or_default("ultrafast"),
         options::integer("gop", "keyframe interval in frames (a late or lossy client restarts at the next one)")
             .within(1, 600)
             .or_default("60"),
         options::word("transport", {"udp", "tcp"}, "how the RTP packets travel (rtsp is not built)").or_default("udp"),
         options::integer("fps", "frames per second ximagesrc captures").within(1, 240).or_default("60")},
        ",");
  }();
  return set;
}

const char* transport_name(Transport t) { return t == Transport::udp ? "udp" : "tcp"; }

StreamOptions parse_stream_options(std::string_view text) {
  const options::Values v = options::parse(stream_option_set(), text);
  StreamOptions o;
  // x264enc takes whole kbit/s.
  o.bitrate_kbit = static_cast<int>(std::llround(v.number("bitrate") / 1e3));
  o.preset = v.text("preset");
  o.gop = static_cast<int>(v.integer("gop"));
  o.transport = v.choice_as<Transport>("transport");
  o.fps = static_cast<int>(v.integer("fps"));
  return o;
}

std::string to_string(const StreamOptions& o) {
  return fmt::format("bitrate={}kbit,preset={},gop={},transport={},fps={}", o.bitrate_kbit, o.preset, o.gop,
                     transport_name(o.transport), o.fps);
}

}  // namespace pictor::stream
