// Real-game profiles: every field parsed and checked, errors that name file and line, the shipped
// profiles valid, and the private home the launcher prepares.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/error.h"
#include "suite/launch.h"
#include "suite/profile.h"

using namespace pictor;
using namespace pictor::suite;
namespace fs = std::filesystem;

namespace {

const std::string kGood = R"(# a comment
name = demo
description = a demo game
package = demo-game
command = demo --size={width}x{height} --fast
env = SDL_AUDIODRIVER=dummy
env = ALSOFT_DRIVERS=null
config_file = .demo/rc: width {width}
config_file = .demo/rc: height {height}
config_file = .config/demo/other.ini: [x]
window = Demo Game
startup_timeout = 30s
startup_wait = 1500ms
startup = key:Return wait:1s
startup = click:50%x25% click:100x200
inputs = Left|Right|space|button1
driver = scripted:rate=3,keys=Left|space
duration = 20s
load_time = 4s
passwd_home = private
)";

Profile parse(const std::string& text, const std::string& file = "demo.profile") {
  std::istringstream in(text);
  return parse_profile(in, file);
}

// The error message of parsing `text`, or "" when it parses.
std::string error_of(const std::string& text, const std::string& file = "demo.profile") {
  try {
    parse(text, file);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::string base_without(const std::string& field) {
  std::istringstream in(kGood);
  std::string out, line;
  while (std::getline(in, line))
    if (line.rfind(field + " =", 0) != 0) out += line + "\n";
  return out;
}

}  // namespace

TEST(Profile, ParsesEveryField) {
  const Profile p = parse(kGood);
  EXPECT_EQ(p.name, "demo");
  EXPECT_EQ(p.description, "a demo game");
  EXPECT_EQ(p.package, "demo-game");
  EXPECT_EQ(p.command, (std::vector<std::string>{"demo", "--size={width}x{height}", "--fast"}));
  ASSERT_EQ(p.env.size(), 2u);
  EXPECT_EQ(p.env[1], (std::pair<std::string, std::string>{"ALSOFT_DRIVERS", "null"}));
  ASSERT_EQ(p.config_files.size(), 2u);
  EXPECT_EQ(p.config_files[0].path, ".demo/rc");
  EXPECT_EQ(p.config_files[0].lines, (std::vector<std::string>{"width {width}", "height {height}"}));
  EXPECT_EQ(p.window, "Demo Game");
  EXPECT_EQ(p.startup_timeout_s, 30);
  EXPECT_EQ(p.startup_wait_s, 1.5);
  ASSERT_EQ(p.startup.size(), 4u);
  EXPECT_EQ(p.startup[0].kind, StartupStep::Kind::key);
  EXPECT_EQ(p.startup[0].key, "Return");
  EXPECT_EQ(p.startup[1].seconds, 1.0);
  EXPECT_TRUE(p.startup[2].percent);
  EXPECT_EQ(p.startup[2].x, 50);
  EXPECT_EQ(p.startup[2].y, 25);
  EXPECT_FALSE(p.startup[3].percent);
  EXPECT_EQ(p.startup[3].y, 200);
  EXPECT_EQ(p.inputs, (std::vector<std::string>{"Left", "Right", "space", "button1"}));
  EXPECT_EQ(p.driver, "scripted:rate=3,keys=Left|space");
  EXPECT_EQ(p.duration_s, 20);
  EXPECT_EQ(p.load_time_s, 4);
  EXPECT_TRUE(p.passwd_home);
}

TEST(Profile, ErrorsNameFileLineAndCause) {
  EXPECT_EQ(error_of(kGood + "colour = red\n"),
            "demo.profile:21: unknown field 'colour' (known: command, config_file, description, driver, duration, env, "
            "inputs, load_time, name, package, passwd_home, startup, startup_timeout, startup_wait, window)");
  EXPECT_EQ(error_of(kGood + "window = Other\n"), "demo.profile:21: field 'window' given twice (first on line 11)");
  EXPECT_EQ(error_of(kGood + "just words\n"), "demo.profile:21: expected 'field = value', got 'just words'");
  EXPECT_EQ(error_of(kGood + "env = NOVALUE\n"), "demo.profile:21: env needs VAR=value, got 'NOVALUE'");
  EXPECT_EQ(error_of(kGood + "env = HOME=/root\n"), "demo.profile:21: env may not set HOME (Pictor sets it for the game)");
  EXPECT_EQ(error_of(kGood + "env = LD_PRELOAD=x.so\n"),
            "demo.profile:21: env may not set LD_PRELOAD (Pictor sets it for the game)");
  EXPECT_EQ(error_of(kGood + "config_file = ../../.bashrc: rm -rf\n"),
            "demo.profile:21: config_file path '../../.bashrc' must stay inside the private home (relative, no '..')");
  EXPECT_EQ(error_of(kGood + "config_file = /etc/passwd: x\n"),
            "demo.profile:21: config_file path '/etc/passwd' must stay inside the private home (relative, no '..')");
  EXPECT_EQ(error_of(kGood + "startup = press:Return\n"),
            "demo.profile:21: bad startup step 'press:Return' (expected key:NAME, click:XxY, click:X%xY% or "
            "wait:DURATION)");
  EXPECT_EQ(error_of(kGood + "startup = click:101%x5%\n"), "demo.profile:21: startup step 'click:101%x5%': per cent above 100");
  for (const char* bad : {"click:1000%x5%", "click:5%x", "click:%x5%", "click:5%x5", "click:5%x5%%"})
    EXPECT_NE(error_of(kGood + "startup = " + bad + "\n").find("demo.profile:21: "), std::string::npos) << bad;
  EXPECT_NE(error_of(base_without("inputs") + "inputs = Left|NoSuchKey\n").find("demo.profile:20: "), std::string::npos);
  EXPECT_NE(error_of(base_without("startup_wait") + "startup_wait = soon\n").find("demo.profile:20: "),
            std::string::npos);
  EXPECT_EQ(error_of(base_without("passwd_home") + "passwd_home = user\n"),
            "demo.profile:20: passwd_home can only be 'private', got 'user'");
  EXPECT_EQ(error_of(base_without("description") + "description =\n"), "demo.profile:20: field 'description' has no value");
}

TEST(Profile, LongNamesAreCheckedWithoutRecursion) {
  // std::regex recursed once per character: a 200 000-character name or env variable overflowed
  // the stack (found by fuzz/fuzz_profile.cpp; fuzz/corpus/profile/long_name, long_env: 60 000 characters).
  const std::string name(200'000, 'a');
  EXPECT_EQ(error_of("name = " + name + "\ncommand = x\nwindow = w\ninputs = space\n", "p").rfind("p:", 0),
            std::string::npos);  // parses
  EXPECT_EQ(error_of("name = " + name + "!\n", "p").substr(0, 10), "p:1: name ");
  EXPECT_EQ(error_of("name = x\nenv = " + std::string(200'000, 'A') + "=1\ncommand = x\nwindow = w\ninputs = space\n", "p"),
            "");
  EXPECT_EQ(error_of(kGood + "env = 9X=1\n"), "demo.profile:21: env needs VAR=value, got '9X=1'");
  EXPECT_EQ(error_of(kGood.substr(0, kGood.find("name = demo")) + "name = -demo" +
                     kGood.substr(kGood.find("name = demo") + 11)),
            "demo.profile:2: name '-demo' must be lower-case letters, digits, '-' or '_'");
}

TEST(Profile, DevicesAreRefusedByName) {
  EXPECT_THROW(load_profile("/dev/zero"), UsageError);
  try {
    load_profile("/dev/zero");
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "/dev/zero: is a character device, not a file Pictor can read");
  }
}

TEST(Profile, MissingFieldsAndDriverMismatch) {
  EXPECT_EQ(error_of(base_without("command")), "demo.profile: missing field 'command'");
  EXPECT_EQ(error_of(base_without("window")), "demo.profile: missing field 'window'");
  EXPECT_EQ(error_of(base_without("inputs")), "demo.profile: missing field 'inputs'");
  // The driver may send only what the profile lists as sensible inputs, wherever they are given.
  EXPECT_EQ(error_of(base_without("driver") + "driver = scripted:keys=Left|Up\n"),
            "demo.profile:20: driver sends 'Up', which is not in inputs");
  EXPECT_NE(error_of(base_without("driver") + "driver = teleport\n").find("demo.profile:20: "), std::string::npos);
  EXPECT_EQ(error_of(kGood, "other.profile"), "other.profile:2: name 'demo' differs from the file name 'other'");
}

TEST(Profile, ShippedProfilesAreValid) {
  const fs::path dir = fs::path(PICTOR_SOURCE_DIR) / "profiles";
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".profile") continue;
    ++count;
    const Profile p = load_profile(entry.path().string());
    EXPECT_FALSE(p.package.empty()) << entry.path();
    EXPECT_FALSE(p.driver.empty()) << entry.path() << ": suites need a default driver";
    // Without a sound device, OpenAL and SDL audio must be told to use none (or they hang).
    bool quiet_audio = false;
    for (const auto& [k, v] : p.env) quiet_audio = quiet_audio || (k == "ALSOFT_DRIVERS" && v == "null");
    EXPECT_TRUE(quiet_audio) << entry.path();
  }
  EXPECT_EQ(count, 4);
  for (const char* name : {"extremetuxracer", "neverball", "supertuxkart", "warzone2100"})
    EXPECT_NO_THROW(load_profile((dir / (std::string(name) + ".profile")).string())) << name;
}

// SuperTuxKart's default (advanced, dynamic-lights) pipeline renders an importance-sampled
// specular map before the race that kept llvmpipe busy for minutes: the shipped profile must
// keep the simple pipeline, a window of the session's size and the race-now start.
TEST(Profile, ShippedSuperTuxKartStartsFastOnSoftwareRendering) {
  const Profile p = load_profile((fs::path(PICTOR_SOURCE_DIR) / "profiles" / "supertuxkart.profile").string());
  auto has = [&](const std::string& arg) { return std::find(p.command.begin(), p.command.end(), arg) != p.command.end(); };
  EXPECT_TRUE(has("--disable-dynamic-lights"));
  EXPECT_TRUE(has("--race-now"));
  EXPECT_TRUE(has("--windowed"));
  EXPECT_TRUE(has("--screensize={width}x{height}"));
  EXPECT_TRUE(p.startup.empty()) << "--race-now needs no start-up input";
  // Play starts startup_wait after the first drawing, which must cover the track's loading.
  EXPECT_GE(p.startup_wait_s, 10.0);
  EXPECT_GE(p.load_time_s, p.startup_wait_s);
}

TEST(Profile, FindByNameOrPathAndListTheKnownOnes) {
  const fs::path dir = fs::temp_directory_path() / ("pictor-profiles-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "demo.profile") << kGood;
  setenv("PICTOR_PROFILES", dir.c_str(), 1);
  EXPECT_EQ(find_profile("demo"), (dir / "demo.profile").string());
  EXPECT_EQ(find_profile((dir / "demo.profile").string()), (dir / "demo.profile").string());
  const auto known = known_profiles();
  EXPECT_NE(std::find(known.begin(), known.end(), "demo"), known.end());
  EXPECT_NE(std::find(known.begin(), known.end(), "neverball"), known.end()) << "the source tree's profiles";
  try {
    find_profile("nosuchgame");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no profile 'nosuchgame' (known: demo, extremetuxracer, neverball"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(find_profile("/no/such/file.profile"), UsageError);
  unsetenv("PICTOR_PROFILES");
  fs::remove_all(dir);
}

TEST(Launch, PrivateHomeConfigAndEnvironment) {
  const Profile p = parse(kGood);
  const fs::path home = fs::temp_directory_path() / ("pictor-home-" + std::to_string(getpid()));
  fs::remove_all(home);
  prepare_home(p, home.string(), {800, 600});
  std::ifstream rc(home / ".demo/rc");
  std::stringstream ss;
  ss << rc.rdbuf();
  EXPECT_EQ(ss.str(), "width 800\nheight 600\n");
  EXPECT_TRUE(fs::exists(home / ".config/demo/other.ini"));
  EXPECT_TRUE(fs::is_directory(home / ".cache"));
  EXPECT_TRUE(fs::is_directory(home / ".local/share"));
  const auto env = game_env(p, home.string());
  EXPECT_EQ(env.at("HOME"), home.string());
  EXPECT_EQ(env.at("XDG_CONFIG_HOME"), home.string() + "/.config");
  EXPECT_EQ(env.at("XDG_DATA_HOME"), home.string() + "/.local/share");
  EXPECT_EQ(env.at("XDG_CACHE_HOME"), home.string() + "/.cache");
  EXPECT_EQ(env.at("SDL_AUDIODRIVER"), "dummy");
  EXPECT_EQ(game_argv(p, {800, 600}), (std::vector<std::string>{"demo", "--size=800x600", "--fast"}));
  fs::remove_all(home);
}
