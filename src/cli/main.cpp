// Entry point of `pictor`: builds the subcommand tree and maps typed errors to exit codes
// (DESIGN 4b: 0 success, 1 the measured thing failed, 2 usage or input error).
#include <cstdio>
#include <exception>

#include "cli/commands.h"
#include "core/error.h"
#include "icdata/record.h"

int main(int argc, char** argv) {
  CLI::App app{"Pictor: frame timing, input-to-frame latency and peak-complexity benchmarks "
               "for OpenGL applications"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "pictor 0.1.0");
  pictor::cli::Context ctx;
  app.add_flag("-q,--quiet", ctx.quiet, "Print no progress on stderr");
  pictor::cli::add_run(app, ctx);
  pictor::cli::add_analyze(app, ctx);
  pictor::cli::add_graph(app, ctx);
  pictor::cli::add_mark(app, ctx);
  pictor::cli::add_suite(app, ctx);
  pictor::cli::add_record(app, ctx);
  pictor::cli::add_train(app, ctx);
  pictor::cli::add_ic(app, ctx);
  pictor::cli::add_compare(app, ctx);
  pictor::cli::register_drivers();
  pictor::icdata::register_drivers();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const pictor::UsageError& e) {
    std::fprintf(stderr, "pictor: %s\n", e.what());
    return 2;
  } catch (const pictor::RunError& e) {
    std::fprintf(stderr, "pictor: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pictor: %s\n", e.what());
    return 1;
  }
  return ctx.exit_code;
}
