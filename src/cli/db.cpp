// `pictor db list|show|export`, the --db/--no-db options of run, suite and mark, and the lookup of
// database ids for `pictor compare`. The database itself is src/db (docs/reports.md).
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "core/files.h"
#include "core/time_text.h"
#include "core/units.h"
#include "db/db_format.h"
#include "db/record.h"
#include "db/results_store.h"
#include "runner/session_writes.h"

namespace pictor::cli {

namespace {

namespace fs = std::filesystem;

struct DbCommandArgs {
  std::string db;
  bool json = false;
  bool csv = false;
  std::string app, adapter, host, since;
  std::size_t limit = 0;
  std::int64_t id = 0;
};

std::unique_ptr<db::ResultsStore> open_for_command(const std::string& location) {
  try {
    return db::open_store(location.empty() ? db::default_location() : location);
  } catch (const db::StoreError& e) {
    throw RunError(std::string("results database: ") + e.what());
  }
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == std::string::npos;
}

// --since: an ISO 8601 UTC date or time (2026-12-01, 2026-12-01T14:00), or an age (90m, 12h, 7d).
std::string since_text(const std::string& since) {
  if (since.empty()) return since;
  if (since.size() >= 10 && since[4] == '-' && since[7] == '-') return since;
  double seconds = 0;
  if (since.back() == 'd' && since.size() > 1) {
    try {
      seconds = std::stod(since.substr(0, since.size() - 1)) * 86400;
    } catch (const std::exception&) {
      seconds = -1;
    }
  } else {
    try {
      seconds = parse_duration_s(since);
    } catch (const UsageError&) {
      seconds = -1;
    }
  }
  if (!(seconds >= 0) || seconds > 100.0 * 365 * 86400)
    throw UsageError("--since '" + since + "': give a UTC date or time (2026-12-01, 2026-12-01T14:00) or an age (90m, 12h, 7d)");
  return format_time(std::time(nullptr) - static_cast<std::time_t>(seconds), "%Y-%m-%dT%H:%M:%SZ", true);
}

db::ListFilter filter_of(const DbCommandArgs& a) {
  db::ListFilter f;
  f.app = a.app;
  f.adapter = a.adapter;
  f.host = a.host;
  f.since = since_text(a.since);
  f.limit = a.limit;
  return f;
}

void add_filters(CLI::App* cmd, DbCommandArgs& a) {
  cmd->add_option("--app", a.app, "only runs whose app contains this text (builtin:spin, glxgears, a suite's name)");
  cmd->add_option("--adapter", a.adapter, "only runs on this adapter (local, xvnc, x11vnc)");
  cmd->add_option("--host", a.host, "only runs made on this machine (its hostname)");
  cmd->add_option("--since", a.since, "only runs started at or after a UTC date/time (2026-12-01T14:00) or within an age (12h, 7d)");
  cmd->add_option("-n,--limit", a.limit, "at most this many runs, newest first");
}

}  // namespace

void add_db_options(CLI::App* cmd, DbArgs& args) {
  cmd->add_option("--db", args.db,
                  "results database: FILE (SQLite) or postgresql://USER@HOST:PORT/DB (default "
                  "$XDG_DATA_HOME/pictor/results.db, else ~/.local/share/pictor/results.db)");
  cmd->add_flag("--no-db", args.no_db, "do not record this run in the results database");
}

void record_in_db(const DbArgs& args, const std::string& dir, bool quiet, const std::vector<std::string>& argv) {
  if (args.no_db || dir.empty() || !fs::exists(dir)) return;
  std::vector<std::string> command_line = argv;
  if (command_line.empty()) {
    // What ran, for a directory whose files do not say (mark.json): pictor's own argv.
    try {
      const std::string text = files::read_file("/proc/self/cmdline");
      for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = text.find('\0', at);
        command_line.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
        if (end == std::string::npos) break;
        at = end + 1;
      }
    } catch (const std::exception&) {
      // Unknown: the database then stores an empty list.
    }
  }
  const db::RecordOutcome r = db::record_results(args.db, dir, command_line);
  if (r.error.empty()) {
    if (!quiet && r.id)
      std::fprintf(stderr, "pictor: recorded as run %lld in %s%s\n", static_cast<long long>(*r.id), r.location.c_str(),
                   r.recorded > 1 ? fmt::format(" (with {} runs inside it)", r.recorded - 1).c_str() : "");
    return;
  }
  // Never fails the run: one line, and the cause in each unrecorded run's write_errors. The
  // location is named once (the engines' messages mostly start with it).
  const bool named = r.location.empty() || r.error.find(r.location) != std::string::npos;
  const std::string cause = named ? r.error : r.location + ": " + r.error;
  for (const std::string& status_file : r.not_recorded) runner::add_write_error(status_file, "results database", cause);
  std::fprintf(stderr, "pictor: warning: not recorded in the results database: %s\n", cause.c_str());
}

std::string resolve_db_side(const std::string& side, const std::string& location) {
  std::string out;
  std::unique_ptr<db::ResultsStore> store;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = side.find(',', start);
    const std::string item = side.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::string resolved = item;
    // A number that names no file or directory here is a database id.
    if (all_digits(item) && !fs::exists(item)) {
      if (!store) store = open_for_command(location);
      const std::optional<db::StoredRun> run = store->get(std::stoll(item));
      if (!run) throw UsageError(fmt::format("no run {} in the results database {}", item, store->location()));
      if (!fs::exists(run->run.dir))
        throw UsageError(fmt::format("run {}: its directory {} no longer exists", item, run->run.dir));
      resolved = run->run.dir;
    }
    out += (start == 0 ? "" : ",") + resolved;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void add_db(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<DbCommandArgs>();
  auto* cmd = app.add_subcommand("db", "The results database: every run recorded (list, show, export)");
  cmd->require_subcommand(1);
  cmd->fallthrough();  // --db after the subcommand too: pictor db list --db FILE
  cmd->add_option("--db", args->db, "FILE or postgresql://… (default $XDG_DATA_HOME/pictor/results.db, else ~/.local/share/pictor/results.db)");
  cmd->footer("Examples:\n  pictor db list --app builtin:spin --since 7d\n  pictor db show 12\n  pictor db export --csv > runs.csv\n"
              "  pictor compare 12 15");

  auto* list = cmd->add_subcommand("list", "Runs recorded, newest first");
  add_filters(list, *args);
  list->add_flag("--json", args->json, "print the runs as JSON");
  list->callback([args] {
    const db::ListFilter f = filter_of(*args);  // a bad filter is a usage error before anything opens
    const auto store = open_for_command(args->db);
    try {
      if (args->json) std::printf("%s\n", db::run_list_json(*store, f).dump(2).c_str());
      else std::fputs(db::format_run_list(*store, f).c_str(), stdout);
    } catch (const db::StoreError& e) {
      throw RunError(std::string("results database: ") + e.what());
    }
  });

  auto* show = cmd->add_subcommand("show", "One run: what ran, where, and every figure");
  show->add_option("ID", args->id, "the run's id (pictor db list)")->required();
  show->add_flag("--json", args->json, "print the run as JSON");
  show->callback([args] {
    const auto store = open_for_command(args->db);
    try {
      const std::optional<db::StoredRun> run = store->get(args->id);
      if (!run) throw UsageError(fmt::format("no run {} in the results database {}", args->id, store->location()));
      const std::vector<db::StoredRun> children = store->children(args->id);
      if (args->json) std::printf("%s\n", db::run_json(*run, children).dump(2).c_str());
      else std::fputs(db::format_run(*run, children).c_str(), stdout);
    } catch (const db::StoreError& e) {
      throw RunError(std::string("results database: ") + e.what());
    }
  });

  auto* exp = cmd->add_subcommand("export", "Every figure of the runs selected as CSV (one row per run and metric)");
  add_filters(exp, *args);
  exp->add_flag("--csv", args->csv, "CSV on stdout, the header row first (the one format there is)")->required();
  exp->callback([args] {
    const db::ListFilter f = filter_of(*args);
    const auto store = open_for_command(args->db);
    try {
      std::fputs(db::export_csv(*store, f).c_str(), stdout);
    } catch (const db::StoreError& e) {
      throw RunError(std::string("results database: ") + e.what());
    }
  });
  (void)ctx;
}

}  // namespace pictor::cli
