// The SQLite engine of the results database: one file, WAL journal, a busy timeout so that
// sessions finishing at the same moment (a suite beside a run, ctest -j) all land.
#include <sqlite3.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "db/connection.h"

namespace pictor::db {

namespace {

namespace fs = std::filesystem;

class SqliteConnection final : public Connection {
 public:
  SqliteConnection(std::string path, int busy_timeout_ms) : path_(std::move(path)) {
    const fs::path parent = fs::path(path_).parent_path();
    if (!parent.empty()) {
      std::error_code ec;
      fs::create_directories(parent, ec);
      if (ec) throw StoreError(fmt::format("cannot create {}: {}", parent.string(), ec.message()));
    }
    if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw StoreError(fmt::format("cannot open {}: {}", path_, why));
    }
    sqlite3_busy_timeout(db_, busy_timeout_ms);
    try {
      // WAL: a reader (pictor db list) never blocks a session that is recording, and writers wait
      // for each other through the busy timeout instead of failing.
      query("PRAGMA journal_mode=WAL", {});
      exec("PRAGMA foreign_keys=ON", {});
    } catch (...) {
      sqlite3_close(db_);
      throw;
    }
  }
  ~SqliteConnection() override { sqlite3_close(db_); }

  Engine engine() const override { return Engine::sqlite; }
  std::string location() const override { return path_; }

  void exec(const std::string& sql, const std::vector<Value>& params) override {
    if (params.empty()) {
      char* error = nullptr;
      if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string why = error ? error : sqlite3_errmsg(db_);
        sqlite3_free(error);
        throw StoreError(fmt::format("{}: {}", path_, why));
      }
      return;
    }
    query(sql, params);
  }

  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &st, nullptr) != SQLITE_OK)
      throw StoreError(fmt::format("{}: {}", path_, sqlite3_errmsg(db_)));
    struct Finalize {
      sqlite3_stmt* s;
      ~Finalize() { sqlite3_finalize(s); }
    } finalize{st};
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int at = static_cast<int>(i + 1);
      const int rc = params[i] ? sqlite3_bind_text(st, at, params[i]->c_str(), static_cast<int>(params[i]->size()),
                                                   SQLITE_TRANSIENT)
                               : sqlite3_bind_null(st, at);
      if (rc != SQLITE_OK) throw StoreError(fmt::format("{}: {}", path_, sqlite3_errmsg(db_)));
    }
    std::vector<Row> rows;
    for (;;) {
      const int rc = sqlite3_step(st);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) throw StoreError(fmt::format("{}: {}", path_, sqlite3_errmsg(db_)));
      const int n = sqlite3_column_count(st);
      Row row;
      row.reserve(static_cast<std::size_t>(n));
      for (int c = 0; c < n; ++c) {
        switch (sqlite3_column_type(st, c)) {
          case SQLITE_NULL: row.emplace_back(std::nullopt); break;
          // The shortest text that reads back to the same double (SQLite's own text keeps 15 digits).
          case SQLITE_FLOAT: row.emplace_back(fmt::format("{}", sqlite3_column_double(st, c))); break;
          default: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
            row.emplace_back(std::string(text ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(st, c))));
          }
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  void begin_exclusive() override { exec("BEGIN IMMEDIATE", {}); }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Connection> open_sqlite(const std::string& path, int busy_timeout_ms) {
  return std::make_unique<SqliteConnection>(path, busy_timeout_ms);
}

}  // namespace pictor::db
