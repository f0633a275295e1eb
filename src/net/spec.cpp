#include "net/spec.h"

#include <cstdio>
#include <string>

namespace pictor::net {
namespace {

std::string format_duration(double s) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%gms", s * 1e3);
  return buffer;
}

}  // namespace

const options::OptionSet& net_option_set() {
  static const options::OptionSet set(
      "--net",
      {options::duration("delay", "one-way latency added to every chunk, each direction").or_default("0ms"),
       options::duration("jitter", "half-width of the uniform jitter around delay (never reorders)").or_default("0ms"),
       options::share("loss", "share of chunks lost, each costing a retransmission delay").or_default("0"),
       options::bit_rate("rate", "link rate, each direction (default: unlimited)")},
      ",");
  return set;
}

NetSpec parse_net_spec(std::string_view text) {
  NetSpec spec;
  if (text.empty() || text == "none") return spec;
  const options::Values v = options::parse(net_option_set(), text);
  spec.delay_s = v.number("delay");
  spec.jitter_s = v.number("jitter");
  spec.loss = v.number("loss");
  spec.rate_bits_s = v.optional_number("rate").value_or(0);
  return spec;
}

std::string to_string(const NetSpec& spec) {
  if (spec.is_identity()) return "none";
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : ",") + part; };
  char buffer[64];
  if (spec.delay_s > 0) add("delay=" + format_duration(spec.delay_s));
  if (spec.jitter_s > 0) add("jitter=" + format_duration(spec.jitter_s));
  if (spec.loss > 0) {
    std::snprintf(buffer, sizeof buffer, "loss=%g%%", spec.loss * 100);
    add(buffer);
  }
  if (spec.rate_bits_s > 0) {
    std::snprintf(buffer, sizeof buffer, "rate=%gkbit", spec.rate_bits_s / 1e3);
    add(buffer);
  }
  return out;
}

}  // namespace pictor::net
