// The emulated network's description, `--net delay=20ms,jitter=5ms,loss=0.5%,rate=50mbit`,
// and its parser. Every part is optional and applies to each direction separately.
#pragma once
#include <string>
#include <string_view>

#include "core/options.h"

namespace pictor::net {

struct NetSpec {
  double delay_s = 0;        // one-way latency added to every chunk
  double jitter_s = 0;       // half-width of the uniform jitter around delay (never reorders)
  double loss = 0;           // share of chunks "lost" in [0, 1]; costs a retransmission delay
  double rate_bits_s = 0;    // link rate in bit/s; 0 = unlimited
  bool operator==(const NetSpec&) const = default;
  bool is_identity() const { return delay_s == 0 && jitter_s == 0 && loss == 0 && rate_bits_s == 0; }
};

// The options of --net, declared (core/options.h): delay, jitter (durations: ms, s, us), loss
// (percent "0.5%" or a fraction "0.005") and rate (bit/s with kbit, mbit, gbit or bit suffix).
const options::OptionSet& net_option_set();

// Parses "key=value[,key=value...]" against net_option_set(). An empty text or "none" is the
// identity network. Throws UsageError naming the bad part.
NetSpec parse_net_spec(std::string_view text);

// The canonical text of a spec ("delay=20ms,rate=8mbit"); "none" for the identity.
std::string to_string(const NetSpec& spec);

}  // namespace pictor::net
