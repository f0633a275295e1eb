// The results database's schema, version by version, in the SQL of each engine: a new database is
// built by running every step from 1, an old one by running the steps after its version.
#pragma once
#include <string>

#include "db/connection.h"

namespace pictor::db {

// The SQL that takes a database from version `to - 1` to `to` (1: create from nothing).
std::string migration_sql(Engine engine, int to);

// The version a database is at: 0 for an empty one (no pictor_meta table).
int read_schema_version(Connection& c);

// Migrates `c` to `target` inside one exclusive transaction (two processes opening a new database
// at once: the second finds it done). Throws StoreError when the database is newer than `target`.
void migrate(Connection& c, int target);

}  // namespace pictor::db
