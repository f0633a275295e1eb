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

std::map<std::string, DriverInfo>& registry() {
  static std::map<std::string, DriverInfo> r;
  return r;
}

DriverInfo scripted_info() {
  return {"scripted", "seeded taps of keys and buttons at a mean rate (reproducible)", scripted_option_set(),
          [](const options::Values& values, std::string_view) {
            return std::make_unique<ScriptedDriver>(scripted_options(values));
          }};
}

}  // namespace

void register_driver(DriverInfo info) {
  std::lock_guard lock(registry_mutex());
  const std::string name = info.name;
  registry().insert_or_assign(name, std::move(info));
}

std::vector<DriverInfo> driver_infos() {
  std::vector<DriverInfo> infos;
  std::lock_guard lock(registry_mutex());
  if (!registry().contains("scripted")) infos.push_back(scripted_info());
  for (const auto& [name, info] : registry()) {
    if (name == "scripted") infos.insert(infos.begin(), info);
    else infos.push_back(info);
  }
  return infos;
}

std::vector<std::string> driver_names() {
  std::vector<std::string> names;
  for (const auto& info : driver_infos()) names.push_back(info.name);
  return names;
}

std::unique_ptr<Driver> make_driver(std::string_view spec) {
  const auto [name, args] = options::split_name(spec);
  std::string known;
  for (const auto& info : driver_infos()) {
    if (info.name == name) return info.make(options::parse(info.options, args), spec);
    known += (known.empty() ? "" : ", ") + info.name;
  }
  throw UsageError("unknown driver '" + name + "' (known: " + known + ")");
}

}  // namespace pictor::drivers
