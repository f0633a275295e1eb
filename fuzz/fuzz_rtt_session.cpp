// Fuzz target: the session files of input tracking as `pictor analyze SESSION` reads them
// (client_inputs.csv, client_frames.csv, inputs_read.csv, frames.csv, client_updates.csv,
// proxy_events.csv, the stream adapter's stream_frames.csv and stream_received.csv, and the JSON
// beside them), then the matching of inputs to frames (the stream stages among it), the RTT
// summary and its table. The input holds the files one after another, each after a line
// "@@ NAME". They reach the loader from memory, through the reader interface the directory
// loader uses (load_rtt_timeline(SessionFileReader, ...)): written to disk they cost two file
// system calls each and held the fuzzer to ~100 inputs a second.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/rtt_load.h"
#include "core/error.h"
#include "fuzz_check.h"

namespace {

constexpr std::string_view kFiles[] = {"client_inputs.csv", "client_frames.csv",  "inputs_read.csv",
                                       "frames.csv",        "client_updates.csv", "proxy_events.csv",
                                       "stream_frames.csv", "stream_received.csv", "run.json",
                                       "hook.json",         "proxy.json"};

// The files the input holds, by name. Text before the first "@@ NAME" line is ignored, and so is
// a second section of the same name or a name the loader does not read.
std::map<std::string, std::string, std::less<>> session_files(std::string_view input) {
  std::map<std::string, std::string, std::less<>> files;
  std::size_t header = input.substr(0, 3) == "@@ " ? 0 : input.find("\n@@ ");
  if (header != 0 && header != std::string_view::npos) ++header;
  while (header != std::string_view::npos) {
    const std::size_t eol = input.find('\n', header);
    const std::string_view name = input.substr(header + 3, eol == std::string_view::npos ? eol : eol - header - 3);
    const std::size_t body = eol == std::string_view::npos ? input.size() : eol + 1;
    const std::size_t next = eol == std::string_view::npos ? eol : input.find("\n@@ ", eol);
    const std::size_t body_end = next == std::string_view::npos ? input.size() : next + 1;
    for (const std::string_view known : kFiles)
      if (known == name) files.try_emplace(std::string(name), input.substr(body, body_end - body));
    header = next == std::string_view::npos ? next : next + 1;
  }
  return files;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pictor::analysis;
  const auto files = session_files(pictor::fuzz::as_text(data, size));
  const SessionFileReader read = [&](const std::string& name) -> std::optional<std::string> {
    const auto f = files.find(name);
    return f == files.end() ? std::nullopt : std::optional<std::string>(f->second);
  };
  try {
    const RttTimeline t = load_rtt_timeline(read, "session", /*require_client=*/false);
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
