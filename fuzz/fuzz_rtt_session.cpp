// Fuzz target: the session files of input tracking as `pictor analyze SESSION` reads them
// (client_inputs.csv, client_frames.csv, inputs_read.csv, frames.csv, client_updates.csv,
// proxy_events.csv and the JSON beside them), then the matching of inputs to frames, the RTT
// summary and its table. The input holds the files one after another, each after a line
// "@@ NAME"; they are written to a private directory, which the loader reads.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "analysis/rtt.h"
#include "core/error.h"
#include "fuzz_check.h"

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFiles[] = {"client_inputs.csv", "client_frames.csv", "inputs_read.csv",
                                       "frames.csv",        "client_updates.csv", "proxy_events.csv",
                                       "run.json",          "hook.json",          "proxy.json"};

// A directory of this process's own, removed when it exits.
struct SessionDir {
  fs::path path = fs::temp_directory_path() / ("pictor-fuzz-rtt-" + std::to_string(::getpid()));
  SessionDir() { fs::create_directories(path); }
  ~SessionDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const fs::path& session_dir() {
  static const SessionDir dir;
  return dir.path;
}

// Writes every file the input holds and removes the others (left from the previous input). Text
// before the first "@@ NAME" line is ignored, and so is a second section of the same name.
void write_session(std::string_view input) {
  bool present[std::size(kFiles)] = {};
  std::size_t header = input.substr(0, 3) == "@@ " ? 0 : input.find("\n@@ ");
  if (header != 0 && header != std::string_view::npos) ++header;
  while (header != std::string_view::npos) {
    const std::size_t eol = input.find('\n', header);
    const std::string_view name = input.substr(header + 3, eol == std::string_view::npos ? eol : eol - header - 3);
    const std::size_t body = eol == std::string_view::npos ? input.size() : eol + 1;
    const std::size_t next = eol == std::string_view::npos ? eol : input.find("\n@@ ", eol);
    const std::size_t body_end = next == std::string_view::npos ? input.size() : next + 1;
    for (std::size_t i = 0; i < std::size(kFiles); ++i) {
      if (kFiles[i] != name || present[i]) continue;
      present[i] = true;
      std::ofstream(session_dir() / kFiles[i], std::ios::binary | std::ios::trunc)
          .write(input.data() + body, static_cast<std::streamsize>(body_end - body));
    }
    header = next == std::string_view::npos ? next : next + 1;
  }
  for (std::size_t i = 0; i < std::size(kFiles); ++i) {
    std::error_code ec;
    if (!present[i]) fs::remove(session_dir() / kFiles[i], ec);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pictor::analysis;
  write_session(pictor::fuzz::as_text(data, size));
  try {
    const RttTimeline t = load_rtt_timeline(session_dir().string(), /*require_client=*/false);
    std::vector<std::string> notes = t.notes;
    const std::vector<MatchedInput> matched = match_timeline(t, &notes);
    FUZZ_CHECK(matched.size() == t.sent.size());
    for (const MatchedInput& m : matched) {
      // An RTT is never negative: a damaged file must not turn into one.
      FUZZ_CHECK(!(m.rtt_ms < 0));
    }
    const nlohmann::json summary = rtt_summary(t, matched, std::move(notes));
    (void)format_rtt_summary(summary);
    (void)summary.dump();
  } catch (const pictor::UsageError&) {
  }
  return 0;
}
