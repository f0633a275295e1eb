// RTT without the tag marker, for the tracking-overhead benchmark: on the `latency` scene, whose
// whole window flips between two colours on every key/button event it reads, an input's response
// is seen in the first capture after its send that shows the colour the app shows after it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace pictor::bench {

// One capture's mean colour (client_colours.csv).
struct ColourCapture {
  std::int64_t seen_ns = 0;
  double r = 0, g = 0, b = 0;
};

// The latency scene's background: red = v, blue = 1 - v, v = 0.15 after an even number of
// events and 0.85 after an odd number. Returns 0 (even), 1 (odd) or -1 (neither: a capture of
// something else).
int latency_parity(const ColourCapture& c);

struct ColourRtt {
  std::vector<double> rtt_ms;       // one per input whose response was seen unambiguously
  std::size_t sent = 0;             // inputs sent
  std::size_t ambiguous = 0;        // the previous input's response was not seen before this send
  std::size_t not_seen = 0;         // no capture with the answering colour before the next send
  std::string failure;              // why nothing could be timed (empty when timed)
};

// Times each sent input (send times in order, 1st input first) against the captures (in order):
// after input n the app has read n events, so the first capture after the send with parity n % 2
// answers it. Only unambiguous when input n - 1 was seen answered before input n was sent (parity
// alone cannot tell n from n - 2), so such inputs are counted apart, never guessed.
ColourRtt colour_rtt(const std::vector<std::int64_t>& sent_ns, const std::vector<ColourCapture>& captures);

// Reads client_inputs.csv, inputs_read.csv and client_colours.csv of a session without the marker
// and applies colour_rtt. The parity rule needs every input read by the app: when inputs_read.csv
// has another count, `failure` says so and nothing is timed.
ColourRtt session_colour_rtt(const std::string& session_dir);

}  // namespace pictor::bench
