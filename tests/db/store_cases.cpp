// What every results store must do, on whichever engine (store_cases.h).
#include "store_cases.h"

#include <atomic>
#include <thread>

#include "db/db_format.h"
#include "db/results_store.h"
#include "db/schema.h"

namespace pictor::test {

namespace {

db::RunRecord sample_run(const std::string& app, const std::string& start, const std::string& adapter = "local") {
  db::RunRecord r;
  r.kind = "session";
  r.start_time = start;
  r.end_time = start;
  r.command_line = R"(["pictor","run","-d","1s","builtin:null"])";
  r.app = app;
  r.adapter = adapter;
  r.driver = "scripted:rate=4";
  r.options = R"({"size":"320x240"})";
  r.machine = R"({"hostname":"bench-1","cores":2})";
  r.host = "bench-1";
  r.status = "ok";
  r.dir = "/results/" + app;
  r.metrics = {{"fps_avg", 59.94}, {"frame_ms.p99", 0.1 + 0.2}, {"rtt_ms.mean", std::nullopt}, {"tiny", 1e-300}};
  return r;
}

std::optional<double> metric(const db::StoredRun& s, const std::string& name) {
  for (const db::Metric& m : s.run.metrics)
    if (m.name == name) return m.value;
  ADD_FAILURE() << "no metric " << name;
  return std::nullopt;
}

db::ListFilter with_app(const std::string& v) {
  db::ListFilter f;
  f.app = v;
  return f;
}
db::ListFilter with_adapter(const std::string& v) {
  db::ListFilter f;
  f.adapter = v;
  return f;
}
db::ListFilter with_host(const std::string& v) {
  db::ListFilter f;
  f.host = v;
  return f;
}
db::ListFilter with_since(const std::string& v) {
  db::ListFilter f;
  f.since = v;
  return f;
}
db::ListFilter with_limit(std::size_t v) {
  db::ListFilter f;
  f.limit = v;
  return f;
}

}  // namespace

TEST_P(StoreTest, ANewDatabaseGetsTheCurrentSchema) {
  const auto store = db::open_store(GetParam().fresh_location());
  EXPECT_EQ(store->schema_version(), db::kSchemaVersion);
  EXPECT_TRUE(store->list({}).empty());
}

TEST_P(StoreTest, ARunReadsBackWithEveryFieldAndExactFigures) {
  const std::string location = GetParam().fresh_location();
  std::int64_t id = 0;
  {
    const auto store = db::open_store(location);
    id = store->add(sample_run("builtin:null", "2026-12-01T10:00:00Z"));
    EXPECT_GT(id, 0);
  }
  // A second open: the data is kept and the schema left as it is.
  const auto store = db::open_store(location);
  const std::optional<db::StoredRun> s = store->get(id);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->run.kind, "session");
  EXPECT_EQ(s->run.app, "builtin:null");
  EXPECT_EQ(s->run.adapter, "local");
  EXPECT_EQ(s->run.driver, "scripted:rate=4");
  EXPECT_EQ(s->run.host, "bench-1");
  EXPECT_EQ(s->run.status, "ok");
  EXPECT_EQ(s->run.dir, "/results/builtin:null");
  EXPECT_EQ(s->run.command_line, R"(["pictor","run","-d","1s","builtin:null"])");
  EXPECT_EQ(s->run.start_time, "2026-12-01T10:00:00Z");
  EXPECT_FALSE(s->run.parent_id);
  EXPECT_FALSE(s->recorded_at.empty());
  ASSERT_EQ(s->run.metrics.size(), 4u);
  EXPECT_EQ(metric(*s, "fps_avg"), 59.94);
  EXPECT_EQ(metric(*s, "frame_ms.p99"), 0.1 + 0.2);  // bit for bit, not 15 digits
  EXPECT_EQ(metric(*s, "tiny"), 1e-300);
  EXPECT_EQ(metric(*s, "rtt_ms.mean"), std::nullopt);  // unknown stays unknown, never 0
  EXPECT_FALSE(store->get(id + 1000));
}

TEST_P(StoreTest, ListIsNewestFirstAndFilters) {
  const auto store = db::open_store(GetParam().fresh_location());
  const std::int64_t old_spin = store->add(sample_run("builtin:spin:objects=500", "2026-11-01T08:00:00Z"));
  const std::int64_t gears = store->add(sample_run("glxgears", "2026-12-01T09:00:00Z", "xvnc"));
  db::RunRecord other = sample_run("builtin:spin", "2026-12-01T10:00:00Z");
  other.host = "bench-2";
  const std::int64_t new_spin = store->add(other);

  const auto ids = [](const std::vector<db::StoredRun>& runs) {
    std::vector<std::int64_t> out;
    for (const auto& r : runs) out.push_back(r.id);
    return out;
  };
  EXPECT_EQ(ids(store->list({})), (std::vector<std::int64_t>{new_spin, gears, old_spin}));
  EXPECT_EQ(ids(store->list(with_app("spin"))), (std::vector<std::int64_t>{new_spin, old_spin}));
  // The app matches as plain text: a LIKE pattern character is just a character.
  EXPECT_TRUE(store->list(with_app("sp%n")).empty());
  EXPECT_TRUE(store->list(with_app("_")).empty());
  EXPECT_EQ(ids(store->list(with_adapter("xvnc"))), (std::vector<std::int64_t>{gears}));
  EXPECT_EQ(ids(store->list(with_host("bench-2"))), (std::vector<std::int64_t>{new_spin}));
  EXPECT_EQ(ids(store->list(with_since("2026-12-01"))), (std::vector<std::int64_t>{new_spin, gears}));
  EXPECT_EQ(ids(store->list(with_limit(1))), (std::vector<std::int64_t>{new_spin}));
  const auto figures = store->metric_values({"fps_avg"}, with_limit(2));
  EXPECT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures.at(gears).at("fps_avg"), 59.94);
}

TEST_P(StoreTest, ARunKnowsTheRunsInsideIt) {
  const auto store = db::open_store(GetParam().fresh_location());
  db::RunRecord suite = sample_run("default", "2026-12-01T10:00:00Z");
  suite.kind = "suite";
  const std::int64_t parent = store->add(suite);
  db::RunRecord a = sample_run("builtin:racing", "2026-12-01T10:00:01Z");
  a.parent_id = parent;
  db::RunRecord b = sample_run("builtin:shooter", "2026-12-01T10:00:30Z");
  b.parent_id = parent;
  const std::int64_t ia = store->add(a), ib = store->add(b);
  const std::vector<db::StoredRun> children = store->children(parent);
  ASSERT_EQ(children.size(), 2u);
  EXPECT_EQ(children[0].id, ia);
  EXPECT_EQ(children[1].id, ib);
  EXPECT_EQ(store->get(ib)->run.parent_id, parent);
  EXPECT_TRUE(store->children(ia).empty());
}

TEST_P(StoreTest, ExportIsOneCsvRowPerRunAndMetricUnderItsHeader) {
  const auto store = db::open_store(GetParam().fresh_location());
  db::RunRecord r = sample_run("app, with \"quotes\"", "2026-12-01T10:00:00Z");
  const std::int64_t id = store->add(r);
  db::RunRecord bare = sample_run("bare", "2026-12-01T11:00:00Z");
  bare.metrics.clear();
  const std::int64_t bare_id = store->add(bare);
  const std::string csv = db::export_csv(*store, {});
  const std::string header = "id,kind,parent_id,start_time,app,adapter,driver,host,status,dir,metric,value\n";
  ASSERT_EQ(csv.substr(0, header.size()), header);
  // The figureless run first (newest), with empty metric and value.
  EXPECT_NE(csv.find(std::to_string(bare_id) + ",session,,2026-12-01T11:00:00Z,bare,local,scripted:rate=4,bench-1,ok,/results/bare,,\n"),
            std::string::npos) << csv;
  EXPECT_NE(csv.find(std::to_string(id) + ",session,,2026-12-01T10:00:00Z,\"app, with \"\"quotes\"\"\",local"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",fps_avg,59.94\n"), std::string::npos);
  EXPECT_NE(csv.find(",rtt_ms.mean,\n"), std::string::npos);  // unknown: an empty cell
  std::size_t lines = 0;
  for (const char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 1u + 4u);
}

TEST_P(StoreTest, ADatabaseOfThePreviousVersionIsMigratedForward) {
  const std::string location = GetParam().fresh_location();
  {
    // Version 1 as an older pictor made it: no host column, one run in it.
    const auto c = GetParam().connect(location);
    c->exec(db::migration_sql(c->engine(), 1), {});
    c->exec("INSERT INTO runs (kind, recorded_at, start_time, command_line, app, adapter, options, machine, status, dir) "
            "VALUES ('session', '2026-11-30T10:00:00Z', '2026-11-30T10:00:00Z', '[]', 'glxgears', 'local', '{}', "
            "'{\"hostname\": \"old-box\"}', 'ok', '/old')",
            {});
    c->exec("INSERT INTO metrics (run_id, name, value) SELECT id, 'fps_avg', 61.5 FROM runs", {});
    EXPECT_EQ(db::read_schema_version(*c), 1);
  }
  const auto store = db::open_store(location);
  EXPECT_EQ(store->schema_version(), db::kSchemaVersion);
  const std::vector<db::StoredRun> runs = store->list({});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run.host, "old-box");  // filled from the machine description it already had
  EXPECT_EQ(metric(*store->get(runs[0].id), "fps_avg"), 61.5);
  EXPECT_EQ(store->list(with_host("old-box")).size(), 1u);
  store->add(sample_run("builtin:null", "2026-12-01T10:00:00Z"));
  EXPECT_EQ(store->list({}).size(), 2u);
}

TEST_P(StoreTest, ADatabaseOfANewerVersionIsRefused) {
  const std::string location = GetParam().fresh_location();
  db::open_store(location);
  GetParam().connect(location)->exec("UPDATE pictor_meta SET value = '99' WHERE key = 'schema_version'", {});
  try {
    db::open_store(location);
    FAIL() << "a database of version 99 was opened";
  } catch (const db::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 99 is newer"), std::string::npos) << e.what();
  }
}

TEST_P(StoreTest, WritersAtTheSameTimeAllLand) {
  const std::string location = GetParam().fresh_location();
  constexpr int kWriters = 4, kRunsEach = 15;
  std::atomic<int> ready{0};
  std::vector<std::string> errors(kWriters);
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([&, w] {
      try {
        // Each its own connection, as separate pictor processes have; the first opens create the schema.
        ++ready;
        while (ready.load() < kWriters) std::this_thread::yield();
        const auto store = db::open_store(location);
        for (int i = 0; i < kRunsEach; ++i) store->add(sample_run("writer-" + std::to_string(w), "2026-12-01T10:00:00Z"));
      } catch (const std::exception& e) {
        errors[static_cast<std::size_t>(w)] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  const auto store = db::open_store(location);
  EXPECT_EQ(store->list({}).size(), static_cast<std::size_t>(kWriters * kRunsEach));
  EXPECT_EQ(store->list(with_app("writer-3")).size(), static_cast<std::size_t>(kRunsEach));
}

}  // namespace pictor::test
