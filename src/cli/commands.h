// The `pictor` subcommands. Each file in src/cli adds one subcommand to the app; the work itself
// lives in the libraries, so each of these stays thin.
#pragma once
#include <CLI/CLI.hpp>

namespace pictor::cli {

// Each adder registers its subcommand and a callback. A callback reports failure by throwing
// pictor::UsageError (exit 2) or pictor::RunError (exit 1); it may also set `exit_code`.
struct Context {
  int exit_code = 0;
  bool quiet = false;
};

// How a command that ran something ends: an interruption (exit_code 128+signal) prints its cause
// and keeps its status; any other failure is a RunError (exit 1); success returns.
void end_with(Context& ctx, int exit_code, const std::string& failure);

void add_run(CLI::App& app, Context& ctx);
void add_serve(CLI::App& app, Context& ctx);
void add_analyze(CLI::App& app, Context& ctx);
void add_graph(CLI::App& app, Context& ctx);
void add_mark(CLI::App& app, Context& ctx);
void add_suite(CLI::App& app, Context& ctx);
void add_record(CLI::App& app, Context& ctx);
void add_train(CLI::App& app, Context& ctx);
void add_ic(CLI::App& app, Context& ctx);
void add_compare(CLI::App& app, Context& ctx);
void add_db(CLI::App& app, Context& ctx);

// The results database options of run, suite and mark (in db.cpp).
struct DbArgs {
  std::string db;      // FILE or postgresql://…; empty: the default location
  bool no_db = false;
};
void add_db_options(CLI::App* cmd, DbArgs& args);
// Records the result directory DIR (a session, --repeat run, suite or mark) and what is inside
// it. Never throws: a failure is one warning line and an entry in the runs' write_errors.
void record_in_db(const DbArgs& args, const std::string& dir, bool quiet, const std::vector<std::string>& argv = {});
// A compare side with database ids replaced by their directories ("12,13" → "/…/a,/…/b"); an
// item that names an existing file or directory stays as it is.
std::string resolve_db_side(const std::string& side, const std::string& location);
void add_colocate(CLI::App& app, Context& ctx);
void add_campaign(CLI::App& app, Context& ctx);
void add_list(CLI::App& app, Context& ctx);

// Help lines of the spec-taking flags, generated from the declarations (list.cpp); call them
// after register_drivers().
std::string adapter_flag_help();
std::string driver_flag_help();
std::string net_flag_help();
std::string stream_flag_help();

// Registers the input drivers that live outside pictor::drivers (the intelligent client's:
// reference, human, the baselines, and `ic:MODEL`, which needs libtorch) with
// drivers::register_driver; called once at start, before the subcommands are added (their help
// lists the drivers). In ic.cpp.
void register_drivers();

}  // namespace pictor::cli
