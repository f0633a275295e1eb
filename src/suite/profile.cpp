#include "suite/profile.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <istream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "drivers/driver.h"
#include "drivers/input.h"
#include "runner/install_paths.h"
#include "runner/process.h"

#ifndef PICTOR_SOURCE_DIR
#define PICTOR_SOURCE_DIR "."
#endif

namespace pictor::suite {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(trim(part));
  return out;
}

// Checked by hand, not with std::regex: libstdc++'s matcher recurses once per character and a
// long name in a hostile profile overflowed the stack (found by fuzz/fuzz_profile.cpp).
bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_profile_name(const std::string& s) {
  return !s.empty() && is_lower_alnum(s[0]) &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_lower_alnum(c) || c == '_' || c == '-'; });
}
bool is_env_name(const std::string& s) {
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  return !s.empty() && letter(s[0]) &&
         std::all_of(s.begin(), s.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

// "X%xY%" with one to three digits each, as the two numbers; nullopt for anything else.
std::optional<std::pair<int, int>> percent_pair(std::string_view s) {
  const auto number = [&s](int& value) {
    std::size_t n = 0;
    value = 0;
    while (n < s.size() && n < 4 && s[n] >= '0' && s[n] <= '9') value = value * 10 + (s[n++] - '0');
    if (n == 0 || n > 3 || n >= s.size() || s[n] != '%') return false;
    s.remove_prefix(n + 1);
    return true;
  };
  int x = 0, y = 0;
  if (!number(x) || s.empty() || s.front() != 'x') return std::nullopt;
  s.remove_prefix(1);
  if (!number(y) || !s.empty()) return std::nullopt;
  return std::pair{x, y};
}

// Fields and whether they may be given more than once.
const std::map<std::string, bool> kFields = {
    {"name", false},          {"description", false},  {"package", false},  {"command", false},
    {"env", true},            {"config_file", true},   {"window", false},   {"startup_timeout", false},
    {"startup_wait", false},  {"startup", true},       {"inputs", false},   {"driver", false},
    {"duration", false},      {"passwd_home", false},  {"load_time", false}};

// Variables Pictor itself sets for the game; a profile must not change them.
const std::set<std::string> kReservedEnv = {"DISPLAY", "LD_PRELOAD", "PICTOR_OUT", "HOME", "XDG_CONFIG_HOME",
                                            "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"};

StartupStep parse_step(const std::string& text) {
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon), arg = colon == std::string::npos ? "" : text.substr(colon + 1);
  StartupStep s;
  if (kind == "key" && !arg.empty()) {
    const auto code = drivers::parse_input_code(arg);
    if (code.button) throw UsageError("startup step '" + text + "': use click:XxY for buttons");
    s.kind = StartupStep::Kind::key;
    s.key = arg;
  } else if (kind == "wait" && !arg.empty()) {
    s.kind = StartupStep::Kind::wait;
    s.seconds = parse_duration_s(arg);
  } else if (kind == "click" && !arg.empty()) {
    s.kind = StartupStep::Kind::click;
    if (const auto percent = percent_pair(arg)) {
      s.percent = true;
      s.x = percent->first;
      s.y = percent->second;
      if (s.x > 100 || s.y > 100) throw UsageError("startup step '" + text + "': per cent above 100");
    } else {
      const Size at = parse_size(arg);
      s.x = at.width;
      s.y = at.height;
    }
  } else {
    throw UsageError("bad startup step '" + text + "' (expected key:NAME, click:XxY, click:X%xY% or wait:DURATION)");
  }
  return s;
}

}  // namespace

Profile parse_profile(std::istream& in, const std::string& file) {
  Profile p;
  p.source = file;
  std::map<std::string, int> seen;  // field → line it was first given on
  std::string line;
  int number = 0;
  auto at = [&](const std::string& why) { return UsageError(file + ":" + std::to_string(number) + ": " + why); };
  while (std::getline(in, line)) {
    ++number;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto eq = t.find('=');
    if (eq == std::string::npos) throw at("expected 'field = value', got '" + t + "'");
    const std::string key = trim(t.substr(0, eq)), value = trim(t.substr(eq + 1));
    const auto field = kFields.find(key);
    if (field == kFields.end()) {
      std::string known;
      for (const auto& [k, _] : kFields) known += (known.empty() ? "" : ", ") + k;
      throw at("unknown field '" + key + "' (known: " + known + ")");
    }
    if (!field->second && seen.count(key))
      throw at("field '" + key + "' given twice (first on line " + std::to_string(seen[key]) + ")");
    seen.emplace(key, number);
    if (value.empty()) throw at("field '" + key + "' has no value");
    try {
      if (key == "name") {
        if (!is_profile_name(value))
          throw UsageError("name '" + value + "' must be lower-case letters, digits, '-' or '_'");
        p.name = value;
      } else if (key == "description") {
        p.description = value;
      } else if (key == "package") {
        p.package = value;
      } else if (key == "command") {
        p.command = words(value);
      } else if (key == "env") {
        const auto e = value.find('=');
        const std::string var = e == std::string::npos ? "" : value.substr(0, e);
        if (!is_env_name(var))
          throw UsageError("env needs VAR=value, got '" + value + "'");
        if (kReservedEnv.count(var)) throw UsageError("env may not set " + var + " (Pictor sets it for the game)");
        p.env.emplace_back(var, value.substr(e + 1));
      } else if (key == "config_file") {
        const auto colon = value.find(':');
        if (colon == std::string::npos) throw UsageError("config_file needs 'PATH: LINE', got '" + value + "'");
        const std::string path = trim(value.substr(0, colon));
        const fs::path rel(path);
        if (path.empty() || rel.is_absolute() || std::find(rel.begin(), rel.end(), "..") != rel.end())
          throw UsageError("config_file path '" + path + "' must stay inside the private home (relative, no '..')");
        const std::string content = value.substr(colon + 1);
        auto it = std::find_if(p.config_files.begin(), p.config_files.end(), [&](const auto& c) { return c.path == path; });
        if (it == p.config_files.end()) it = p.config_files.insert(p.config_files.end(), ConfigFile{path, {}});
        it->lines.push_back(content.empty() || content[0] != ' ' ? content : content.substr(1));
      } else if (key == "window") {
        p.window = value;
      } else if (key == "startup_timeout") {
        p.startup_timeout_s = parse_duration_s(value);
      } else if (key == "startup_wait") {
        p.startup_wait_s = parse_duration_s(value);
      } else if (key == "startup") {
        for (const auto& w : words(value)) p.startup.push_back(parse_step(w));
      } else if (key == "inputs") {
        for (const auto& name : split(value, '|')) {
          drivers::parse_input_code(name);
          p.inputs.push_back(name);
        }
      } else if (key == "driver") {
        drivers::make_driver(value);  // throws on a bad spec
        p.driver = value;
      } else if (key == "load_time") {
        p.load_time_s = parse_duration_s(value);
      } else if (key == "passwd_home") {
        if (value != "private") throw UsageError("passwd_home can only be 'private', got '" + value + "'");
        p.passwd_home = true;
      } else if (key == "duration") {
        p.duration_s = parse_duration_s(value);
        if (!(p.duration_s > 0)) throw UsageError("duration must be positive");
      }
    } catch (const UsageError& e) {
      throw at(e.what());
    }
  }
  for (const char* required : {"name", "command", "window", "inputs"})
    if (!seen.count(required)) throw UsageError(file + ": missing field '" + required + "'");
  // The driver may only send what the profile says makes sense in this game.
  if (!p.driver.empty()) {
    number = seen["driver"];
    for (const auto& code : drivers::make_driver(p.driver)->vocabulary()) {
      bool listed = false;
      for (const auto& i : p.inputs) listed = listed || drivers::parse_input_code(i) == code;
      if (!listed)
        throw at("driver sends '" + drivers::input_code_name(code.button, code.code) + "', which is not in inputs");
    }
  }
  const fs::path path(file);
  if (path.extension() == ".profile" && path.stem().string() != p.name)
    throw UsageError(file + ":" + std::to_string(seen["name"]) + ": name '" + p.name + "' differs from the file name '" +
                     path.stem().string() + "'");
  return p;
}

Profile load_profile(const std::string& path) {
  // Read whole first: a device (/dev/zero) or a huge file is refused by name, not read line by line.
  std::istringstream in(files::read_input_file(path));
  return parse_profile(in, path);
}

std::vector<std::string> profile_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("PICTOR_PROFILES"); env && *env) dirs.push_back(env);
  const fs::path self = runner::self_directory();
  dirs.push_back((self / "../share/pictor/profiles").lexically_normal().string());
  dirs.push_back((fs::path(PICTOR_SOURCE_DIR) / "profiles").string());
  dirs.push_back("profiles");
  return dirs;
}

std::vector<std::string> known_profiles() {
  std::set<std::string> names;
  for (const auto& d : profile_dirs()) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(d, ec))
      if (entry.path().extension() == ".profile") names.insert(entry.path().stem().string());
  }
  return {names.begin(), names.end()};
}

std::string find_profile(const std::string& name_or_path) {
  // A name the file system refuses (too long, …) is a profile that is not there, not an error of
  // another kind (fuzz/corpus/campaign_plan/long_profile_name).
  const auto exists = [](const fs::path& p) {
    std::error_code ec;
    return fs::exists(p, ec);
  };
  if (name_or_path.find('/') != std::string::npos || fs::path(name_or_path).extension() == ".profile") {
    if (!exists(name_or_path)) throw UsageError("profile file '" + name_or_path + "' not found");
    return name_or_path;
  }
  for (const auto& d : profile_dirs()) {
    const fs::path candidate = fs::path(d) / (name_or_path + ".profile");
    if (exists(candidate)) return candidate.string();
  }
  std::string names;
  for (const auto& n : known_profiles()) names += (names.empty() ? "" : ", ") + n;
  throw UsageError("no profile '" + name_or_path + "' (known: " + (names.empty() ? "none" : names) +
                   "; set PICTOR_PROFILES to a directory of NAME.profile files)");
}

std::optional<std::string> game_program(const Profile& profile) {
  if (profile.command.empty()) return std::nullopt;
  const std::string& program = profile.command[0];
  if (auto found = runner::find_executable(program)) return found;
  if (program.find('/') == std::string::npos) {
    const fs::path debian = fs::path("/usr/games") / program;
    if (::access(debian.c_str(), X_OK) == 0) return debian.string();
  }
  return std::nullopt;
}

bool profile_installed(const Profile& profile) { return game_program(profile).has_value(); }

}  // namespace pictor::suite
