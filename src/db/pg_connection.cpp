// The PostgreSQL engine of the results database (libpq): one shared server, so a team and a
// fleet of machines keep one history. Parameters go as text; the server infers their types.
#include <libpq-fe.h>

#include <fmt/format.h>

#include "db/connection.h"

namespace pictor::db {

namespace {

// The URL without its password, for messages: "postgresql://pictor:***@host:5432/results".
std::string redacted(const std::string& url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const std::size_t at = url.find('@', scheme + 3);
  const std::size_t slash = url.find('/', scheme + 3);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return url;
  const std::size_t colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

// `?` → `$1`, `$2`, …: the rest of src/db writes SQLite's placeholder (no literal in its SQL holds a `?`).
std::string numbered_placeholders(const std::string& sql) {
  std::string out;
  int n = 0;
  for (const char c : sql) {
    if (c == '?') out += fmt::format("${}", ++n);
    else out += c;
  }
  return out;
}

class PgConnection final : public Connection {
 public:
  explicit PgConnection(const std::string& url) : location_(redacted(url)) {
    conn_ = PQconnectdb(url.c_str());
    if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
      const std::string why = conn_ ? one_line(PQerrorMessage(conn_)) : "out of memory";
      PQfinish(conn_);
      throw StoreError(fmt::format("cannot connect to {}: {}", location_, why));
    }
    // Notices (e.g. "relation already exists, skipping") are not for the user.
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
  }
  ~PgConnection() override { PQfinish(conn_); }

  Engine engine() const override { return Engine::postgresql; }
  std::string location() const override { return location_; }

  void exec(const std::string& sql, const std::vector<Value>& params) override {
    if (params.empty()) {
      PGresult* r = PQexec(conn_, sql.c_str());
      check(r);
      PQclear(r);
      return;
    }
    query(sql, params);
  }

  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override {
    std::vector<const char*> values;
    for (const Value& v : params) values.push_back(v ? v->c_str() : nullptr);
    PGresult* r = PQexecParams(conn_, numbered_placeholders(sql).c_str(), static_cast<int>(params.size()), nullptr,
                               values.data(), nullptr, nullptr, 0);
    check(r);
    std::vector<Row> rows;
    const int n = PQntuples(r), cols = PQnfields(r);
    for (int i = 0; i < n; ++i) {
      Row row;
      for (int c = 0; c < cols; ++c)
        row.emplace_back(PQgetisnull(r, i, c) ? Value() : Value(std::string(PQgetvalue(r, i, c),
                                                                             static_cast<std::size_t>(PQgetlength(r, i, c)))));
      rows.push_back(std::move(row));
    }
    PQclear(r);
    return rows;
  }

  void begin_exclusive() override {
    exec("BEGIN", {});
    // Any constant shared by every Pictor client: its schema changes wait for each other.
    exec("SELECT pg_advisory_xact_lock(7381290415)", {});
  }

 private:
  static std::string one_line(const char* text) {
    std::string s = text ? text : "";
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    for (char& c : s)
      if (c == '\n' || c == '\t') c = ' ';
    return s;
  }
  void check(PGresult* r) {
    const ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return;
    const std::string why = one_line(r ? PQresultErrorMessage(r) : PQerrorMessage(conn_));
    PQclear(r);
    throw StoreError(fmt::format("{}: {}", location_, why));
  }

  std::string location_;
  PGconn* conn_ = nullptr;
};

}  // namespace

std::unique_ptr<Connection> open_postgresql(const std::string& url) { return std::make_unique<PgConnection>(url); }

bool is_postgresql_url(const std::string& location) {
  return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

}  // namespace pictor::db
