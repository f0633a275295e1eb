// The one seam between the results database's logic and its two engines: a connection that runs
// SQL with `?` parameters and returns rows of text. SQLite (a file) and PostgreSQL (a server) each
// implement it; everything else in src/db is written once above it.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pictor::db {

// Any failure of the database itself (cannot open, locked past the timeout, SQL refused): the
// message names the location and the engine's reason. Callers recording a session turn it into a
// warning (record.h); `pictor db` commands into exit 1.
struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A parameter or a cell: text, or SQL NULL.
using Value = std::optional<std::string>;
using Row = std::vector<Value>;

enum class Engine { sqlite, postgresql };

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Engine engine() const = 0;
  // Where it is, for messages: the file's path, or the URL without its password.
  virtual std::string location() const = 0;
  // Runs one statement (or, with no parameters, several separated by `;`). Throws StoreError.
  virtual void exec(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  // Runs one statement and returns its rows; `?` marks each parameter in order. Real numbers come
  // back as the shortest text that reads back to the same double. Throws StoreError.
  virtual std::vector<Row> query(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  // A transaction that no other writer can interleave with (SQLite BEGIN IMMEDIATE; PostgreSQL
  // BEGIN plus a transaction-scoped advisory lock, so two migrations never run at once).
  virtual void begin_exclusive() = 0;
  void commit() { exec("COMMIT"); }
  void rollback() noexcept {
    try {
      exec("ROLLBACK");
    } catch (const StoreError&) {
      // Nothing was open (the failure was BEGIN itself): nothing to undo.
    }
  }
};

// Opens (creating the file and its directory if needed) an SQLite database. Waits up to
// `busy_timeout_ms` for another writer; the journal is in WAL mode so readers never block writers.
std::unique_ptr<Connection> open_sqlite(const std::string& path, int busy_timeout_ms = 30000);

// Connects to a PostgreSQL server given as a libpq URL (postgresql://user@host:port/db).
std::unique_ptr<Connection> open_postgresql(const std::string& url);

// True for the locations open_postgresql takes (postgresql://… or postgres://…).
bool is_postgresql_url(const std::string& location);

}  // namespace pictor::db
