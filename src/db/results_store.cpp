#include "db/results_store.h"

#include <cstdlib>
#include <fmt/format.h>

#include "core/time_text.h"
#include "db/schema.h"

namespace pictor::db {

namespace {

Value sql_text_or_null(const std::string& s) { return s.empty() ? Value() : Value(s); }

std::string text(const Value& v) { return v.value_or(""); }

constexpr const char* kRunColumns =
    "id, recorded_at, kind, parent_id, start_time, end_time, command_line, app, adapter, driver, options, machine, "
    "host, status, dir";

StoredRun run_from_row(const Row& r) {
  StoredRun s;
  s.id = std::stoll(text(r[0]));
  s.recorded_at = text(r[1]);
  RunRecord& run = s.run;
  run.kind = text(r[2]);
  if (r[3]) run.parent_id = std::stoll(*r[3]);
  run.start_time = text(r[4]);
  run.end_time = text(r[5]);
  run.command_line = text(r[6]);
  run.app = text(r[7]);
  run.adapter = text(r[8]);
  run.driver = text(r[9]);
  run.options = text(r[10]);
  run.machine = text(r[11]);
  run.host = text(r[12]);
  run.status = text(r[13]);
  run.dir = text(r[14]);
  return s;
}

// The WHERE clause of a filter and its parameters. The app matches as a substring, written so
// that neither engine reads a character of it as a pattern (no LIKE).
std::string where(const ListFilter& f, std::vector<Value>& params, Engine engine) {
  std::string w;
  const auto add = [&](const std::string& clause, const std::string& value) {
    w += (w.empty() ? " WHERE " : " AND ") + clause;
    params.emplace_back(value);
  };
  if (!f.app.empty()) add(engine == Engine::postgresql ? "strpos(app, ?) > 0" : "instr(app, ?) > 0", f.app);
  if (!f.adapter.empty()) add("adapter = ?", f.adapter);
  if (!f.host.empty()) add("host = ?", f.host);
  if (!f.since.empty()) add("start_time >= ?", f.since);
  return w;
}

std::string limit(const ListFilter& f) { return f.limit ? fmt::format(" LIMIT {}", f.limit) : std::string(); }

}  // namespace

ResultsStore::ResultsStore(std::unique_ptr<Connection> connection) : connection_(std::move(connection)) {
  migrate(*connection_, kSchemaVersion);
}

std::int64_t ResultsStore::add(const RunRecord& run) {
  Connection& c = *connection_;
  // SQLite: take the write lock at BEGIN, where the busy timeout waits for another writer.
  c.exec(c.engine() == Engine::sqlite ? "BEGIN IMMEDIATE" : "BEGIN", {});
  try {
    const std::vector<Row> id = c.query(
        "INSERT INTO runs (kind, parent_id, recorded_at, start_time, end_time, command_line, app, adapter, driver, "
        "options, machine, host, status, dir) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        {run.kind, run.parent_id ? Value(std::to_string(*run.parent_id)) : Value(), iso_utc_now(),
         sql_text_or_null(run.start_time), sql_text_or_null(run.end_time), run.command_line.empty() ? "[]" : run.command_line,
         sql_text_or_null(run.app), sql_text_or_null(run.adapter), sql_text_or_null(run.driver),
         run.options.empty() ? "{}" : run.options, run.machine.empty() ? "{}" : run.machine, sql_text_or_null(run.host),
         sql_text_or_null(run.status), run.dir});
    if (id.empty() || !id[0][0]) throw StoreError(c.location() + ": the new run got no id");
    const std::string run_id = *id[0][0];
    for (const Metric& m : run.metrics)
      c.exec("INSERT INTO metrics (run_id, name, value) VALUES (?, ?, ?)",
             {run_id, m.name, m.value ? Value(fmt::format("{}", *m.value)) : Value()});
    c.commit();
    return std::stoll(run_id);
  } catch (...) {
    c.rollback();
    throw;
  }
}

std::vector<StoredRun> ResultsStore::list(const ListFilter& filter) const {
  std::vector<Value> params;
  const std::string sql = fmt::format("SELECT {} FROM runs{} ORDER BY start_time DESC, id DESC{}", kRunColumns,
                                      where(filter, params, connection_->engine()), limit(filter));
  std::vector<StoredRun> out;
  for (const Row& r : connection_->query(sql, params)) out.push_back(run_from_row(r));
  return out;
}

std::optional<StoredRun> ResultsStore::get(std::int64_t id) const {
  const std::vector<Row> rows =
      connection_->query(fmt::format("SELECT {} FROM runs WHERE id = ?", kRunColumns), {std::to_string(id)});
  if (rows.empty()) return std::nullopt;
  StoredRun s = run_from_row(rows[0]);
  for (const Row& m : connection_->query("SELECT name, value FROM metrics WHERE run_id = ? ORDER BY name",
                                         {std::to_string(id)}))
    s.run.metrics.push_back({text(m[0]), m[1] ? std::optional<double>(std::strtod(m[1]->c_str(), nullptr)) : std::nullopt});
  return s;
}

std::vector<StoredRun> ResultsStore::children(std::int64_t id) const {
  std::vector<StoredRun> out;
  for (const Row& r : connection_->query(fmt::format("SELECT {} FROM runs WHERE parent_id = ? ORDER BY id", kRunColumns),
                                         {std::to_string(id)}))
    out.push_back(run_from_row(r));
  return out;
}

std::optional<std::int64_t> ResultsStore::id_of_dir(const std::string& dir) const {
  const std::vector<Row> rows =
      connection_->query("SELECT id FROM runs WHERE dir = ? AND parent_id IS NULL ORDER BY id DESC LIMIT 1", {dir});
  if (rows.empty() || !rows[0][0]) return std::nullopt;
  return std::stoll(*rows[0][0]);
}

std::vector<std::pair<std::int64_t, Metric>> ResultsStore::metrics_of(const ListFilter& filter) const {
  std::vector<Value> params;
  const std::string sql = fmt::format(
      "SELECT m.run_id, m.name, m.value FROM metrics m JOIN (SELECT id, start_time FROM runs{}{}) r ON r.id = m.run_id "
      "ORDER BY r.start_time DESC, r.id DESC, m.name",
      where(filter, params, connection_->engine()),
      filter.limit ? fmt::format(" ORDER BY start_time DESC, id DESC{}", limit(filter)) : std::string());
  std::vector<std::pair<std::int64_t, Metric>> out;
  for (const Row& r : connection_->query(sql, params))
    out.push_back({std::stoll(text(r[0])),
                   {text(r[1]), r[2] ? std::optional<double>(std::strtod(r[2]->c_str(), nullptr)) : std::nullopt}});
  return out;
}

std::map<std::int64_t, std::map<std::string, std::optional<double>>> ResultsStore::metric_values(
    const std::vector<std::string>& names, const ListFilter& filter) const {
  std::map<std::int64_t, std::map<std::string, std::optional<double>>> out;
  if (names.empty()) return out;
  std::vector<Value> params;
  const std::string runs = where(filter, params, connection_->engine());
  std::string in;
  for (const std::string& n : names) {
    in += in.empty() ? "?" : ", ?";
    params.emplace_back(n);
  }
  const std::string sql = fmt::format(
      "SELECT m.run_id, m.name, m.value FROM metrics m JOIN (SELECT id FROM runs{}{}) r ON r.id = m.run_id WHERE m.name IN ({})",
      runs, filter.limit ? fmt::format(" ORDER BY start_time DESC, id DESC{}", limit(filter)) : std::string(), in);
  for (const Row& r : connection_->query(sql, params))
    out[std::stoll(text(r[0]))][text(r[1])] =
        r[2] ? std::optional<double>(std::strtod(r[2]->c_str(), nullptr)) : std::nullopt;
  return out;
}

int ResultsStore::schema_version() const { return read_schema_version(*connection_); }

std::unique_ptr<ResultsStore> open_store(const std::string& location) {
  if (location.empty()) throw StoreError("no results database given");
  return std::make_unique<ResultsStore>(is_postgresql_url(location) ? open_postgresql(location) : open_sqlite(location));
}

std::string default_location() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/pictor/results.db";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.local/share/pictor/results.db";
  throw StoreError("no default results database: neither XDG_DATA_HOME nor HOME is set (give --db FILE or --no-db)");
}

}  // namespace pictor::db
