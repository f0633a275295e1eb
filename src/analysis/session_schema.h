// The schema version a session directory declares for one of its CSV files: a CSV's first line is
// its header row, and its version lives in the JSON beside it (run.json "files", hook.json
// "files", proxy.json "events_schema"). Readers check it before reading the columns.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace pictor::analysis {

// run.json's "files": {"frames.csv": {"schema": 1}, ...} for every CSV of the session directory
// Pictor knows (core/csv_files.h), including a second process's NAME.PID.csv.
nlohmann::json session_files_json(const std::string& session_dir);

// The versions a session's JSON files (run.json, hook.json, proxy.json) declare for its CSVs,
// from their texts (nullptr: the session has no such file; unreadable JSON declares nothing: the
// columns are read by name). Parsed once for all the CSVs of a session.
class DeclaredSchemas {
 public:
  DeclaredSchemas(const std::string* run_json, const std::string* hook_json, const std::string* proxy_json);
  // The version declared for the CSV named `csv_name` (e.g. "frames.csv"), if any.
  std::optional<int> of(const std::string& csv_name) const;
  // Throws UsageError "<csv_path>: <what> schema N is newer than this Pictor reads (M)" when a
  // newer version than `newest` is declared for the file `csv_path` names.
  void check(const std::string& csv_path, std::string_view what, int newest) const;

 private:
  nlohmann::json run_, hook_, proxy_;
};

// The version declared for the CSV at `csv_path` by the JSON files in its directory, if any.
std::optional<int> declared_schema(const std::string& csv_path);

// Throws UsageError "<path>: <what> schema N is newer than this Pictor reads (M)" when the
// directory declares a newer version of this file than `newest`.
void check_declared_schema(const std::string& csv_path, std::string_view what, int newest);

}  // namespace pictor::analysis
