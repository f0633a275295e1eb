// The results-store tests, written once and run on each engine: store_sqlite_test.cpp
// instantiates them on SQLite files, store_postgresql_test.cpp on a real PostgreSQL server.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "db/connection.h"

namespace pictor::test {

struct StoreEngine {
  std::string name;
  // A new, empty database each call: its location (a path or a postgresql:// URL).
  std::function<std::string()> fresh_location;
  // A raw connection to a location, to build old-version databases by hand.
  std::function<std::unique_ptr<db::Connection>(const std::string&)> connect;
};

class StoreTest : public ::testing::TestWithParam<StoreEngine> {};

}  // namespace pictor::test
