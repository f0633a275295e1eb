#include "db/schema.h"

#include <fmt/format.h>

namespace pictor::db {

std::string migration_sql(Engine engine, int to) {
  const bool pg = engine == Engine::postgresql;
  switch (to) {
    case 1:
      // One row per run; one row per figure, so a new figure in summary.json needs no new column.
      return fmt::format(R"(
CREATE TABLE pictor_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
  id {},
  kind TEXT NOT NULL,
  parent_id BIGINT REFERENCES runs(id),
  recorded_at TEXT NOT NULL,
  start_time TEXT,
  end_time TEXT,
  command_line TEXT NOT NULL,
  app TEXT,
  adapter TEXT,
  driver TEXT,
  options TEXT NOT NULL,
  machine TEXT NOT NULL,
  status TEXT,
  dir TEXT NOT NULL
);
CREATE TABLE metrics (
  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value {},
  PRIMARY KEY (run_id, name)
);
INSERT INTO pictor_meta (key, value) VALUES ('schema_version', '1');
)",
                         pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT",
                         pg ? "DOUBLE PRECISION" : "REAL");
    case 2:
      // The host as its own column, filled from the machine description the runs already hold.
      return fmt::format(R"(
ALTER TABLE runs ADD COLUMN host TEXT;
UPDATE runs SET host = {};
CREATE INDEX runs_start_time ON runs (start_time);
CREATE INDEX runs_parent ON runs (parent_id);
CREATE INDEX metrics_name ON metrics (name);
UPDATE pictor_meta SET value = '2' WHERE key = 'schema_version';
)",
                         pg ? "CAST(machine AS json) ->> 'hostname'" : "json_extract(machine, '$.hostname')");
    default: throw StoreError(fmt::format("no migration to results database schema version {}", to));
  }
}

int read_schema_version(Connection& c) {
  const std::string exists =
      c.engine() == Engine::postgresql
          ? "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'pictor_meta'"
          : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'pictor_meta'";
  const std::vector<Row> n = c.query(exists, {});
  if (n.empty() || !n[0][0] || *n[0][0] == "0") return 0;
  const std::vector<Row> v = c.query("SELECT value FROM pictor_meta WHERE key = 'schema_version'", {});
  if (v.empty() || !v[0][0]) throw StoreError(c.location() + ": pictor_meta has no schema_version: not a Pictor results database");
  try {
    return std::stoi(*v[0][0]);
  } catch (const std::exception&) {
    throw StoreError(c.location() + ": schema_version '" + *v[0][0] + "' is not a number");
  }
}

void migrate(Connection& c, int target) {
  // Read outside a transaction first: the common case, a database already at `target`, takes no
  // write lock at all.
  if (read_schema_version(c) == target) return;
  c.begin_exclusive();
  try {
    const int at = read_schema_version(c);
    if (at > target)
      throw StoreError(fmt::format("{}: results database schema version {} is newer than this pictor's ({}); use a newer "
                                   "pictor", c.location(), at, target));
    for (int v = at + 1; v <= target; ++v) c.exec(migration_sql(c.engine(), v), {});
    c.commit();
  } catch (...) {
    c.rollback();
    throw;
  }
}

}  // namespace pictor::db
