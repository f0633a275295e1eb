// The results database (docs/reports.md "Results database"): every run Pictor makes — what ran,
// on which machine, its status, its directory and every summary figure as one row per metric — in
// SQLite or PostgreSQL behind this one interface. Versioned schema, migrated forward on open.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/connection.h"

namespace pictor::db {

// The schema version this build writes. 1: runs and metrics; 2: runs.host (from the machine
// description, for `pictor db list --host`) and indexes on start time and metric name.
inline constexpr int kSchemaVersion = 2;

// One figure of a run: its summary.json path ("frame_ms.p99"), and its value — nullopt when the
// figure is unknown (summary.json null), never 0.
struct Metric {
  std::string name;
  std::optional<double> value;
};

// What one run was. Text fields Pictor did not know are empty (stored as NULL).
struct RunRecord {
  std::string kind;          // "session", "repeat", "suite", "mark"
  std::optional<std::int64_t> parent_id;  // the repeat run or suite it belongs to
  std::string start_time;    // ISO 8601 UTC, as run.json has it
  std::string end_time;
  std::string command_line;  // JSON array of pictor's argv
  std::string app;           // "builtin:spin:objects=500", "glxgears", "profile:neverball", a suite's name
  std::string adapter;
  std::string driver;
  std::string options;       // JSON object: size, duration, net, … (what else decided the run)
  std::string machine;       // JSON object, run.json's machine
  std::string host;          // machine.hostname
  std::string status;        // "ok", "failed", "interrupted"
  std::string dir;           // absolute path of its directory
  std::vector<Metric> metrics;
};

struct StoredRun {
  std::int64_t id = 0;
  std::string recorded_at;   // when the database got it (ISO 8601 UTC)
  RunRecord run;             // metrics filled by get() only
};

struct ListFilter {
  std::string app;           // substring of app
  std::string adapter;       // exact
  std::string host;          // exact
  std::string since;         // ISO 8601 UTC prefix: runs that started at or after it
  std::size_t limit = 0;     // 0: all
};

class ResultsStore {
 public:
  // Takes the connection and brings its schema to kSchemaVersion (creating it in an empty
  // database). Throws StoreError for a database of a newer version than this build knows.
  explicit ResultsStore(std::unique_ptr<Connection> connection);

  // Adds the run and its metrics in one transaction; returns its id.
  std::int64_t add(const RunRecord& run);
  // Newest first (by start time, then id), without metrics.
  std::vector<StoredRun> list(const ListFilter& filter) const;
  // The run with its metrics, or nullopt.
  std::optional<StoredRun> get(std::int64_t id) const;
  // The runs whose parent is `id` (a repeat run's sessions, a suite's benchmarks), oldest first.
  std::vector<StoredRun> children(std::int64_t id) const;
  // The newest run recorded from directory `dir` (absolute, as recorded), at the top level (a
  // campaign finds each cell's session by it), or nullopt.
  std::optional<std::int64_t> id_of_dir(const std::string& dir) const;
  // Every metric of the runs `filter` selects, as (id, metric) pairs, newest run first: for export.
  std::vector<std::pair<std::int64_t, Metric>> metrics_of(const ListFilter& filter) const;

  // The values of the metrics called `names` of the runs `filter` selects: id → name → value.
  std::map<std::int64_t, std::map<std::string, std::optional<double>>> metric_values(const std::vector<std::string>& names,
                                                                                     const ListFilter& filter) const;

  int schema_version() const;
  std::string location() const { return connection_->location(); }
  Connection& connection() { return *connection_; }

 private:
  std::unique_ptr<Connection> connection_;
};

// SQLite for a path, PostgreSQL for postgresql://…; throws StoreError.
std::unique_ptr<ResultsStore> open_store(const std::string& location);

// The default database: $XDG_DATA_HOME/pictor/results.db, else $HOME/.local/share/pictor/results.db.
// Throws StoreError when neither variable is set.
std::string default_location();

}  // namespace pictor::db
