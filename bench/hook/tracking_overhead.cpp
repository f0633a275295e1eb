// The RTT overhead of tracking (issue #7): the `latency` scene driven by the scripted client with
// the tag marker drawn (RTT by tag: inputs.csv) and without it (RTT by colour: the scene flips its
// whole window on every input, client_colours.csv), in interleaved session pairs on the same
// scene, rate and seed. Prints each session and the medians over pairs.
// Usage: tracking_overhead [PAIRS] [SECONDS] [RATE] [SIZE]
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "analysis/stats.h"
#include "colour_rtt.h"
#include "core/units.h"
#include "runner/session.h"

namespace fs = std::filesystem;
using namespace pictor;

namespace {

struct Side {
  std::vector<double> rtt_ms;
  std::size_t sent = 0;
  double fps = std::numeric_limits<double>::quiet_NaN();
  std::string note;
};

double median(const std::vector<double>& v) { return analysis::stats::percentile(v, 50); }

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return nullptr;
  return nlohmann::json::parse(in, nullptr, false);
}

// RTT by tag: the matched rows of inputs.csv.
std::vector<double> tag_rtts(const fs::path& dir) {
  std::ifstream in(dir / "inputs.csv");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  analysis::CsvReader reader(text, (dir / "inputs.csv").string());
  analysis::CsvRow row;
  std::optional<analysis::CsvHeader> header;
  std::vector<double> out;
  while (reader.next(row)) {
    if (!row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#') continue;
    if (!header) {
      header.emplace(row, (dir / "inputs.csv").string());
      continue;
    }
    const auto v = analysis::field_optional_double(row, *header, header->require("rtt_ms"));
    if (v && row.fields[header->require("status")] == "matched") out.push_back(*v);
  }
  return out;
}

Side run_side(bool marker, int pair, double seconds, double rate, Size size, const fs::path& work) {
  runner::RunOptions o;
  o.builtin = "latency";
  o.duration_s = seconds;
  o.size = size;
  o.quiet = true;
  o.marker = marker;
  o.driver = fmt::format("scripted:rate={},keys=space,seed={}", rate, pair + 1);
  o.out_dir = (work / fmt::format("pair{}-{}", pair, marker ? "marker" : "colour")).string();
  fs::remove_all(o.out_dir);
  const runner::RunResult r = runner::run_session(o);
  Side s;
  if (r.exit_code != 0) s.note = r.failure;
  if (r.summary.is_object() && r.summary.contains("fps_avg") && r.summary["fps_avg"].is_number())
    s.fps = r.summary["fps_avg"].get<double>();
  const nlohmann::json run = read_json(fs::path(o.out_dir) / "run.json");
  if (run.is_object() && run.contains("client")) s.sent = run["client"].value("inputs_sent", std::size_t{0});
  try {
    if (marker) {
      s.rtt_ms = tag_rtts(o.out_dir);
    } else {
      const bench::ColourRtt c = bench::session_colour_rtt(o.out_dir);
      s.rtt_ms = c.rtt_ms;
      if (!c.failure.empty()) s.note = c.failure;
      else if (c.ambiguous + c.not_seen > 0) s.note = fmt::format("{} ambiguous, {} not seen", c.ambiguous, c.not_seen);
    }
  } catch (const std::exception& e) {
    s.note = e.what();
  }
  return s;
}

std::string figure(double v) { return std::isfinite(v) ? fmt::format("{:.2f}", v) : "-"; }

}  // namespace

int main(int argc, char** argv) {
  const int pairs = argc > 1 ? std::atoi(argv[1]) : 5;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 8.0;
  const double rate = argc > 3 ? std::atof(argv[3]) : 4.0;
  const Size size = parse_size(argc > 4 ? argv[4] : "1280x720");
  const fs::path work = fs::temp_directory_path() / fmt::format("pictor-tracking-bench-{}", ::getpid());
  std::printf("latency scene %dx%d, scripted rate %g (keys=space), %d pairs x %g s, order alternating\n",
              size.width, size.height, rate, pairs, seconds);
  std::printf("%-5s %-7s %6s %5s %9s %9s %9s %9s  %s\n", "pair", "marker", "sent", "timed", "RTT p50", "RTT mean",
              "RTT p99", "app FPS", "notes");
  std::vector<double> p50[2], mean[2], p99[2], fps[2], timed_share[2];
  for (int pair = 0; pair < pairs; ++pair) {
    for (int k = 0; k < 2; ++k) {
      const bool marker = (pair % 2 == 0) ? k == 0 : k == 1;
      const Side s = run_side(marker, pair, seconds, rate, size, work);
      const int i = marker ? 1 : 0;
      const double a = median(s.rtt_ms), m = analysis::stats::mean(s.rtt_ms), q = analysis::stats::percentile(s.rtt_ms, 99);
      std::printf("%-5d %-7s %6zu %5zu %9s %9s %9s %9s  %s\n", pair, marker ? "on" : "off", s.sent, s.rtt_ms.size(),
                  figure(a).c_str(), figure(m).c_str(), figure(q).c_str(), figure(s.fps).c_str(), s.note.c_str());
      std::fflush(stdout);
      if (!s.rtt_ms.empty()) {
        p50[i].push_back(a);
        mean[i].push_back(m);
        p99[i].push_back(q);
      }
      if (std::isfinite(s.fps)) fps[i].push_back(s.fps);
      if (s.sent > 0) timed_share[i].push_back(100.0 * static_cast<double>(s.rtt_ms.size()) / static_cast<double>(s.sent));
    }
  }
  std::printf("\nmedians over pairs      RTT p50   RTT mean   RTT p99   app FPS   timed %%\n");
  for (int i = 1; i >= 0; --i) {
    std::printf("marker %-3s (%s) %9s %10s %9s %9s %9s\n", i ? "on" : "off", i ? "by tag   " : "by colour",
                figure(median(p50[i])).c_str(), figure(median(mean[i])).c_str(), figure(median(p99[i])).c_str(),
                figure(median(fps[i])).c_str(), figure(median(timed_share[i])).c_str());
  }
  std::printf("session directories: %s\n", work.c_str());
  return 0;
}
