// The stream adapter's options (`--stream bitrate=8mbit,preset=ultrafast,gop=60,transport=udp`):
// declared once as data in core/options.h's mechanism, so they are listed (`pictor list stream`)
// and checked, with the one wording of every error, like --net, drivers and scenes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/options.h"

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

// The declarations: what `pictor list stream` prints and the parser checks.
const options::OptionSet& stream_option_set();

// x264enc's speed presets, fastest first.
const std::vector<std::string_view>& x264_presets();

// Parses "key=value[,key=value...]" (empty: every default). Bitrates take a unit (2500kbit,
// 8mbit) or are a bare number of kbit/s, x264's own unit. Throws UsageError in core/options.h's
// wording.
StreamOptions parse_stream_options(std::string_view text);

// The canonical text ("bitrate=8000kbit,preset=ultrafast,gop=60,transport=udp,fps=60").
std::string to_string(const StreamOptions& options);
const char* transport_name(Transport t);

}  // namespace pictor::stream
