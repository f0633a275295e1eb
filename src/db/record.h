// Recording a finished run in the results database: the directory read (run_record.h) and added
// with the runs inside it, parents first. Never throws: what could not be recorded is returned,
// so that the caller warns once and notes it in each run's write_errors, and the run stands.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pictor::db {

struct RecordOutcome {
  std::string location;                  // the database, as given or the default
  std::optional<std::int64_t> id;        // the top run's id, when it was recorded
  std::size_t recorded = 0;              // runs added, the top one included
  std::string error;                     // the first failure, one line ("" when all went in)
  // The status files (run.json, suite.json, mark.json, absolute) of the runs not recorded.
  std::vector<std::string> not_recorded;
};

// `location`: a path, a postgresql:// URL, or "" for default_location(). `argv`: pictor's command
// line, used where the directory's own files do not give one (mark.json).
RecordOutcome record_results(const std::string& location, const std::string& dir, const std::vector<std::string>& argv = {});

}  // namespace pictor::db
