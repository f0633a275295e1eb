// The stream adapter's options (`--stream bitrate=8mbit,preset=ultrafast,gop=60,transport=udp`):
// declared once as data (name, default, meaning, allowed values) so they can be listed and checked.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace pictor::stream {

enum class Transport { udp, tcp };

struct StreamOptions {
  int bitrate_kbit = 8000;            // x264enc bitrate (kbit/s)
  std::string preset = "ultrafast";   // x264enc speed-preset
  int gop = 60;                       // keyframe interval in frames (x264enc key-int-max)
  Transport transport = Transport::udp;
  int fps = 60;                       // ximagesrc capture rate
  bool operator==(const StreamOptions&) const = default;
};

// One option as data: what `pictor run --help` and the errors list.
struct StreamOptionInfo {
  std::string_view name;
  std::string_view default_text;
  std::string_view meaning;
  std::string_view allowed;  // values or range, in words
};
const std::vector<StreamOptionInfo>& stream_option_table();

// x264enc's speed presets, fastest first.
const std::vector<std::string_view>& x264_presets();

// Parses "key=value[,key=value...]" (empty: every default). Bitrates take kbit, mbit or a bare
// number of kbit/s. Throws UsageError naming the bad part and what is allowed.
StreamOptions parse_stream_options(std::string_view text);

// The canonical text ("bitrate=8000kbit,preset=ultrafast,gop=60,transport=udp,fps=60").
std::string to_string(const StreamOptions& options);
const char* transport_name(Transport t);

}  // namespace pictor::stream
