// `pictor list [scenes|drivers|adapters|net|stream]`: everything a spec may name, with its options, and
// the --driver/--net help lines. All of it generated from the declarations (core/options.h), so
// there is no second copy to keep in step.
#include <cstdio>
#include <memory>
#include <string>

#include "apps/scene.h"
#include "cli/commands.h"
#include "core/options.h"
#include "drivers/driver.h"
#include "net/spec.h"
#include "runner/adapter.h"
#include "stream/stream_options.h"

namespace pictor::cli {

namespace {

// "name      summary", then its options indented below.
std::string entry(const std::string& name, const std::string& summary, const options::OptionSet& set) {
  const std::size_t pad = name.size() < 14 ? 14 - name.size() : 1;
  return "  " + name + std::string(pad, ' ') + summary + "\n" + options::help(set, 6);
}

std::string list_text(const std::string& what) {
  std::string out;
  if (what.empty() || what == "scenes") {
    out += "scenes (pictor run builtin:NAME[:option=value...]):\n";
    std::string scenes = apps::describe_scenes();
    // Indented under the heading, line by line.
    for (std::size_t pos = 0; pos < scenes.size();) {
      const std::size_t nl = scenes.find('\n', pos);
      out += "  " + scenes.substr(pos, nl - pos + 1);
      pos = nl == std::string::npos ? scenes.size() : nl + 1;
    }
  }
  if (what.empty() || what == "drivers") {
    out += "drivers (--driver NAME[:option=value,...]):\n";
    for (const auto& d : drivers::driver_infos()) out += entry(d.name, d.summary, d.options);
  }
  if (what.empty() || what == "adapters") {
    out += "adapters (--adapter NAME, or display:DISPLAY):\n";
    for (const auto& a : runner::adapter_infos()) out += entry(a.name, a.summary, a.options);
  }
  if (what.empty() || what == "net") {
    out += "net (--net option=value,...; each direction):\n" + options::help(net::net_option_set(), 2);
  }
  if (what.empty() || what == "stream") {
    out += "stream (--adapter stream --stream option=value,...):\n" + options::help(stream::stream_option_set(), 2);
  }
  return out;
}

// "delay=DURATION,jitter=..." from a set's first line of help per option.
std::string usage_line(const options::OptionSet& set) {
  std::string out;
  for (const auto& o : set.options) out += (out.empty() ? "" : ",") + o.name + "=...";
  return out;
}

}  // namespace

std::string adapter_flag_help() {
  std::string names;
  for (const auto& n : runner::adapter_names()) names += (names.empty() ? "" : ", ") + n;
  return "display/proxy stack: NAME[:option=value,...], NAME one of " + names + " (pictor list adapters: what each is)";
}

std::string driver_flag_help() {
  std::string names;
  for (const auto& n : drivers::driver_names()) names += (names.empty() ? "" : ", ") + n;
  return "send inputs and track each to its frame: NAME[:option=value,...], NAME one of " + names +
         " (pictor list drivers: their options)";
}

std::string stream_flag_help() {
  std::string defaults;
  for (const auto& o : stream::stream_option_set().options)
    defaults += (defaults.empty() ? "" : ",") + o.name + "=" + o.default_text.value_or("");
  return "--adapter stream: " + defaults + " (the defaults; pictor list stream)";
}

std::string net_flag_help() {
  return "emulated network between client and proxy, per direction: " + usage_line(net::net_option_set()) +
         " (pictor list net)";
}

void add_list(CLI::App& app, Context& /*ctx*/) {
  auto what = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("list", "List the built-in scenes, drivers, adapters, net and stream options, with their options");
  cmd->add_option("what", *what, "only scenes, drivers, adapters, net or stream")
      ->check(CLI::IsMember({"scenes", "drivers", "adapters", "net", "stream"}));
  cmd->callback([what] { std::fputs(list_text(*what).c_str(), stdout); });
}

}  // namespace pictor::cli
