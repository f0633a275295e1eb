#include "drivers/driver.h"

#include <map>
#include <mutex>

#include "core/error.h"
#include "drivers/scripted_driver.h"

namespace pictor::drivers {

namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, DriverFactory>& registry() {
  static std::map<std::string, DriverFactory> r;
  return r;
}

}  // namespace

void register_driver(const std::string& name, DriverFactory factory) {
  std::lock_guard lock(registry_mutex());
  registry()[name] = std::move(factory);
}

// "NAME[:k=v[,k=v...]]": the same shape as built-in scene specs, ':' or ',' between options.
std::map<std::string, std::string> parse_driver_options(std::string_view text, std::string_view spec) {
  std::map<std::string, std::string> options;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find_first_of(":,", pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(pos, end - pos);
    if (!item.empty()) {
      const auto eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        throw UsageError("driver '" + std::string(spec) + "': option '" + std::string(item) +
                         "' is not NAME=VALUE");
      }
      const std::string name(item.substr(0, eq));
      if (!options.emplace(name, std::string(item.substr(eq + 1))).second) {
        throw UsageError("driver '" + std::string(spec) + "': option '" + name + "' given twice");
      }
    }
    pos = end + 1;
  }
  return options;
}

std::vector<std::string> driver_names() {
  std::vector<std::string> names{"scripted"};
  std::lock_guard lock(registry_mutex());
  for (const auto& [name, factory] : registry())
    if (name != "scripted") names.push_back(name);
  return names;
}

std::unique_ptr<Driver> make_driver(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string name(spec.substr(0, colon));
  const std::string_view args = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
  DriverFactory factory;
  {
    std::lock_guard lock(registry_mutex());
    if (const auto it = registry().find(name); it != registry().end()) factory = it->second;
  }
  if (factory) return factory(args, spec);
  if (name == "scripted") return std::make_unique<ScriptedDriver>(parse_scripted_options(parse_driver_options(args, spec)));
  std::string known;
  for (const auto& n : driver_names()) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("unknown driver '" + name + "' (known: " + known + ")");
}

}  // namespace pictor::drivers
