#include "analysis/session_end.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace pictor::analysis {

namespace fs = std::filesystem;

void attach_session_end(FrameSeries& series, const std::string& path) {
  constexpr const char* kUnseen = ": a stall after the last frame cannot be seen";
  series.session_end_ns.reset();
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    const std::string what = series.source == "pictor" || series.source.empty() ? "a frames.csv alone"
                                                                                   : "a " + series.source + " log";
    series.session_end_note = what + " does not say when the session ended" + kUnseen +
                              (series.source == "pictor" ? " (analyze the session directory instead)" : "");
    return;
  }
  const fs::path run_path = fs::path(path) / "run.json";
  if (!fs::exists(run_path, ec)) {
    series.session_end_note = std::string("the directory has no run.json to say when the session ended") + kUnseen;
    return;
  }
  nlohmann::json run;
  try {
    std::ifstream in(run_path);
    run = nlohmann::json::parse(in);
  } catch (const std::exception&) {
    series.session_end_note = std::string("run.json cannot be read, so when the session ended is unknown") + kUnseen;
    return;
  }
  if (run.is_object() && run.contains("end_ns") && run["end_ns"].is_number_integer()) {
    series.session_end_ns = run["end_ns"].get<int64_t>();
    series.session_end_note.clear();
    return;
  }
  if (run.is_object() && run.value("status", "") == "running")
    series.session_end_note = std::string("run.json says the session is still running") + kUnseen;
  else
    series.session_end_note = std::string("run.json has no end_ns (written by an older Pictor)") + kUnseen;
}

}  // namespace pictor::analysis
