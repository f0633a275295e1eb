// Resolving the sides of `pictor compare` into session directories (see compare_input.h).
#include "analysis/compare_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "analysis/session_data.h"
#include "core/error.h"

namespace pictor::analysis {

namespace {

namespace fs = std::filesystem;

bool is_session(const fs::path& dir) {
  return fs::exists(dir / "frames.csv") || fs::exists(dir / "summary.json") || fs::exists(dir / "run.json");
}

// DIR/repeat-1, repeat-2, … in numeric order (repeat-10 after repeat-9).
std::vector<std::string> repeat_sessions(const fs::path& dir) {
  std::vector<std::pair<int, std::string>> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || !name.starts_with("repeat-")) continue;
    try {
      found.emplace_back(std::stoi(name.substr(7)), e.path().string());
    } catch (const std::exception&) {
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& [k, path] : found) out.push_back(path);
  return out;
}

// A session, or a run of repeats: the unit's sessions.
std::vector<std::string> run_sessions(const fs::path& dir) {
  std::vector<std::string> repeats = repeat_sessions(dir);
  if (!repeats.empty()) return repeats;
  if (is_session(dir)) return {dir.string()};
  return {};
}

}  // namespace

std::vector<CompareUnit> resolve_compare_item(const std::string& item) {
  const fs::path dir(item);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UsageError(fmt::format("{}: not a session, run or suite directory{}", item,
                                 fs::exists(dir, ec) ? "" : " (it does not exist)"));
  if (fs::exists(dir / "suite.json")) {
    const nlohmann::json suite = read_json_file((dir / "suite.json").string());
    std::vector<CompareUnit> units;
    for (const auto& b : json_at(suite, {"benchmarks"})) {
      const nlohmann::json& sub = json_at(b, {"session_dir"});
      if (!sub.is_string()) continue;
      std::vector<std::string> sessions = run_sessions(dir / sub.get<std::string>());
      if (!sessions.empty()) units.push_back({b.value("name", sub.get<std::string>()), std::move(sessions)});
    }
    if (units.empty()) throw UsageError(item + ": the suite has no session directory to compare");
    return units;
  }
  std::vector<std::string> sessions = run_sessions(dir);
  if (sessions.empty()) throw UsageError(item + ": not a session, run or suite directory (no run.json, summary.json, frames.csv, repeat-N/ or suite.json)");
  return {{"", std::move(sessions)}};
}

std::vector<CompareUnit> resolve_compare_side(const std::string& spec) {
  std::vector<std::string> items;
  std::error_code ec;
  if (fs::exists(spec, ec) || spec.find(',') == std::string::npos) {
    items.push_back(spec);
  } else {
    std::size_t b = 0;
    while (b <= spec.size()) {
      const std::size_t e = std::min(spec.find(',', b), spec.size());
      if (e > b) items.push_back(spec.substr(b, e - b));
      b = e + 1;
    }
  }
  if (items.empty()) throw UsageError("an empty side: give a session, run or suite directory");
  std::vector<CompareUnit> units;
  for (const std::string& item : items) {
    for (CompareUnit& u : resolve_compare_item(item)) {
      auto it = std::find_if(units.begin(), units.end(), [&](const CompareUnit& x) { return x.name == u.name; });
      if (it == units.end()) units.push_back(std::move(u));
      else it->sessions.insert(it->sessions.end(), u.sessions.begin(), u.sessions.end());
    }
  }
  return units;
}

std::vector<UnitPair> pair_units(const std::vector<CompareUnit>& a, const std::vector<CompareUnit>& b,
                                 std::vector<std::string>& unpaired) {
  std::vector<UnitPair> out;
  if (a.size() == 1 && b.size() == 1) {
    out.push_back({a[0].name == b[0].name ? a[0].name : a[0].name.empty() ? b[0].name : a[0].name, a[0], b[0]});
    return out;
  }
  for (const CompareUnit& u : a) {
    const auto it = std::find_if(b.begin(), b.end(), [&](const CompareUnit& x) { return x.name == u.name; });
    if (it == b.end()) unpaired.push_back(fmt::format("{}: only in A", u.name.empty() ? "(session)" : u.name));
    else out.push_back({u.name, u, *it});
  }
  for (const CompareUnit& u : b)
    if (std::none_of(a.begin(), a.end(), [&](const CompareUnit& x) { return x.name == u.name; }))
      unpaired.push_back(fmt::format("{}: only in B", u.name.empty() ? "(session)" : u.name));
  return out;
}

Comparison compare_unit_pair(const UnitPair& p, const CompareOptions& o) {
  const std::size_t na = p.a.sessions.size(), nb = p.b.sessions.size();
  const std::string name = p.name.empty() ? "" : p.name + ": ";
  if (na == 1 && nb == 1)
    return compare_sessions(session_samples(load_session_data(p.a.sessions[0])), session_samples(load_session_data(p.b.sessions[0])), o);
  if (na < 2 || nb < 2)
    throw UsageError(fmt::format("{}A has {} run(s) and B has {}: compare one session with one, or at least 2 runs with "
                                 "at least 2 (a single run has no run-to-run spread to compare against)",
                                 name, na, nb));
  const auto summaries = [](const std::vector<std::string>& dirs) {
    std::vector<nlohmann::json> out;
    for (const std::string& d : dirs) {
      nlohmann::json s = read_json_file((std::filesystem::path(d) / "summary.json").string());
      if (!s.is_object()) throw UsageError(d + ": no summary.json (the session wrote no figures)");
      out.push_back(std::move(s));
    }
    return out;
  };
  return compare_runs(summaries(p.a.sessions), summaries(p.b.sessions), o);
}

}  // namespace pictor::analysis
