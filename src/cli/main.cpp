// Entry point of `pictor`: builds the subcommand tree and maps typed errors to exit codes
// (DESIGN 4b: 0 success, 1 the measured thing failed, 2 usage or input error). Whatever fails, the
// last line on stderr is "pictor: <cause>", one line of plain text.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/error.h"
#include "core/text.h"

namespace {

// The longest cause printed: a safety net, the libraries keep their messages far shorter.
constexpr std::size_t kMaxCauseBytes = 2000;

// The commands below `app`, as a list for a message.
std::string command_list(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_disabled()) continue;
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  return names;
}

// The cause of a command-line error as one line: the command it concerns, CLI11's reason and
// where help is ("run: --duration: 1 required TEXT missing (see pictor run --help)"). A word that
// is no command is named, with the commands there are.
std::string parse_error_cause(CLI::App& app, const CLI::ParseError& error) {
  // The command being parsed when CLI11 stopped: the deepest one it had entered.
  CLI::App* at = &app;
  std::string path;
  while (!at->get_subcommands().empty()) {
    at = at->get_subcommands().front();
    path += (path.empty() ? "" : " ") + at->get_name();
  }
  const std::string prefix = path.empty() ? "" : path + ": ";
  const std::string help = "see pictor " + (path.empty() ? "" : path + " ") + "--help";

  // A command that needs one of its subcommands and got none: say which word was not one.
  if (at->get_require_subcommand_min() > 0 &&
      (dynamic_cast<const CLI::RequiredError*>(&error) || dynamic_cast<const CLI::ExtrasError*>(&error))) {
    const std::vector<std::string> left = at->remaining();
    for (const std::string& word : left) {
      if (!word.empty() && word[0] != '-') {
        return prefix + "unknown command '" + word + "' (commands: " + command_list(*at) + "; " + help + ")";
      }
    }
    if (!left.empty()) return prefix + "unknown option '" + left.front() + "' (" + help + ")";
    return prefix + "a command is required (commands: " + command_list(*at) + "; " + help + ")";
  }
  // CLI11's reasons start with a capital ("The following argument was not expected: x"); the
  // line reads on after "pictor: run: ", so it is lowered unless it starts a name ("PATH is ...").
  std::string reason = error.what();
  if (reason.size() > 1 && reason[0] >= 'A' && reason[0] <= 'Z' && reason[1] >= 'a' && reason[1] <= 'z') {
    reason[0] = static_cast<char>(reason[0] - 'A' + 'a');
  }
  return prefix + reason + " (" + help + ")";
}

void print_cause(const std::string& cause) {
  std::fprintf(stderr, "pictor: %s\n", pictor::quote_for_error(cause, kMaxCauseBytes).c_str());
}

}  // namespace

namespace pictor::cli {

void end_with(Context& ctx, int exit_code, const std::string& failure) {
  if (exit_code > 1) {
    std::fprintf(stderr, "pictor: %s\n", failure.c_str());
    ctx.exit_code = exit_code;
    return;
  }
  if (exit_code != 0) throw RunError(failure);
}

}  // namespace pictor::cli

int main(int argc, char** argv) {
  CLI::App app{"Pictor: frame timing, input-to-frame latency and peak-complexity benchmarks "
               "for OpenGL applications"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "pictor 0.1.0");
  pictor::cli::Context ctx;
  app.add_flag("-q,--quiet", ctx.quiet, "Print no progress on stderr");
  pictor::cli::register_drivers();
  pictor::cli::add_run(app, ctx);
  pictor::cli::add_serve(app, ctx);
  pictor::cli::add_analyze(app, ctx);
  pictor::cli::add_graph(app, ctx);
  pictor::cli::add_mark(app, ctx);
  pictor::cli::add_suite(app, ctx);
  pictor::cli::add_record(app, ctx);
  pictor::cli::add_train(app, ctx);
  pictor::cli::add_ic(app, ctx);
  pictor::cli::add_compare(app, ctx);
  pictor::cli::add_db(app, ctx);
  pictor::cli::add_colocate(app, ctx);
  pictor::cli::add_campaign(app, ctx);
  pictor::cli::add_list(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" to CLI11 with status 0: it prints them on stdout.
    if (e.get_exit_code() == 0) return app.exit(e);
    print_cause(parse_error_cause(app, e));
    return 2;
  } catch (const pictor::UsageError& e) {
    print_cause(e.what());
    return 2;
  } catch (const pictor::RunError& e) {
    print_cause(e.what());
    return 1;
  } catch (const std::exception& e) {
    print_cause(e.what());
    return 1;
  }
  return ctx.exit_code;
}
