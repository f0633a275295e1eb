// `pictor` on bad command lines and bad input files, run as a user runs it: the exit status is 2
// and the last line on stderr is "pictor: <cause>", one line of plain text that names the
// command and the word or file at fault (issue 14, item 6).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

struct Result {
  int status = -1;
  std::string out;
  std::string err;
  // The last line of stderr, without its line end.
  std::string last_err_line() const {
    std::string e = err;
    while (!e.empty() && e.back() == '\n') e.pop_back();
    const auto nl = e.rfind('\n');
    return nl == std::string::npos ? e : e.substr(nl + 1);
  }
};

class Cli : public ::testing::Test {
 protected:
  Cli() : dir_(fs::temp_directory_path() / ("pictor-cli-test-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~Cli() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& content) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }

  // Runs pictor with `args` (no shell), stdout and stderr to files in the test's directory.
  Result pictor(const std::vector<std::string>& args) const {
    const std::string out = (dir_ / "stdout").string(), err = (dir_ / "stderr").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<std::string> argv_text{PICTOR_BIN};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    Result r;
    if (posix_spawn(&pid, PICTOR_BIN, &actions, nullptr, argv.data(), environ) == 0) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    posix_spawn_file_actions_destroy(&actions);
    r.out = read(out);
    r.err = read(err);
    return r;
  }

  static std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Exit 2 and the last stderr line is exactly `line`, plain printable ASCII.
  void expect_usage_error(const std::vector<std::string>& args, const std::string& line) const {
    const Result r = pictor(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.last_err_line(), line);
    for (const char c : r.last_err_line()) {
      EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "byte " << int(static_cast<unsigned char>(c)) << " in " << r.err;
    }
  }

  fs::path dir_;
};

const std::string kCommands = "run, serve, analyze, graph, mark, suite, record, train, ic, compare, db, colocate, campaign, list";

TEST_F(Cli, NoCommandOrAnUnknownOneIsNamed) {
  expect_usage_error({}, "pictor: a command is required (commands: " + kCommands + "; see pictor --help)");
  // CLI11 said "A subcommand is required" here, without naming the word.
  expect_usage_error({"frobnicate"},
                     "pictor: unknown command 'frobnicate' (commands: " + kCommands + "; see pictor --help)");
  expect_usage_error({"-q", "frobnicate", "x"},
                     "pictor: unknown command 'frobnicate' (commands: " + kCommands + "; see pictor --help)");
  expect_usage_error({"--bogus"}, "pictor: unknown option '--bogus' (see pictor --help)");
  expect_usage_error({"ic", "frob"}, "pictor: ic: unknown command 'frob' (commands: eval; see pictor ic --help)");
  expect_usage_error({"db"}, "pictor: db: a command is required (commands: list, show, export; see pictor db --help)");
}

TEST_F(Cli, OptionErrorsNameTheirCommandAndItsHelp) {
  // CLI11 ended these with "Run with --help for more information." as the last line.
  expect_usage_error({"run", "--duration"}, "pictor: run: --duration: 1 required TEXT missing (see pictor run --help)");
  expect_usage_error({"run", "--bogus", "builtin:null"},
                     "pictor: run: the following argument was not expected: --bogus (see pictor run --help)");
  expect_usage_error({"analyze"}, "pictor: analyze: PATH is required (see pictor analyze --help)");
  expect_usage_error({"analyze", "a.csv", "b.csv"},
                     "pictor: analyze: the following argument was not expected: b.csv (see pictor analyze --help)");
  expect_usage_error({"mark", "--controller", "wild"},
                     "pictor: mark: --controller: wild not in {ramp,fixed} (see pictor mark --help)");
  expect_usage_error({"mark", "score"}, "pictor: mark score: SAMPLES.json is required (see pictor mark score --help)");
  expect_usage_error({"db", "show"}, "pictor: db show: ID is required (see pictor db show --help)");
  expect_usage_error({"db", "list", "--since", "yesterday"},
                     "pictor: --since 'yesterday': give a UTC date or time (2026-12-01, 2026-12-01T14:00) or an age (90m, 12h, 7d)");
  expect_usage_error({"run", "--metrics-listen", "127.0.0.1:0", "builtin:null"},
                     "pictor: --metrics-listen '127.0.0.1:0': the port must be 1..65535 (e.g. 127.0.0.1:9464)");
}

// Scenes, drivers and --net are parsed by the one options mechanism (core/options.h): each kind
// of error has one wording, whatever the spec, and comes before anything is made or started.
TEST_F(Cli, EveryKindOfSpecErrsInTheOneWording) {
  const std::string never = (dir_ / "never").string();
  auto run = [&](std::vector<std::string> args) {
    std::vector<std::string> all{"run", "-d", "2s", "-o", never};
    all.insert(all.end(), args.begin(), args.end());
    return all;
  };
  expect_usage_error(run({"builtin:spin:objcts=2"}),
                     "pictor: scene 'spin' has no option 'objcts' (options: objects, seed, max_fps)");
  expect_usage_error(run({"builtin:spin:objects=1,objects=2"}), "pictor: scene 'spin': option 'objects' given twice");
  expect_usage_error(run({"--driver", "scripted:rate=fast", "builtin:null"}),
                     "pictor: driver 'scripted': rate=fast is not a number in [0.001, 1000] (taps a second, on average)");
  expect_usage_error(run({"--driver", "scripted:rate", "builtin:null"}),
                     "pictor: driver 'scripted': 'rate' is not NAME=VALUE");
  expect_usage_error(run({"--driver", "slow-motion:/no/such/rec,timeout=soon", "builtin:null"}),
                     "pictor: driver 'slow-motion': timeout=soon is not a duration of at least 1 us (e.g. 20ms, 1.5s) "
                     "(without a response frame it sends anyway after this long)");
  expect_usage_error(run({"--driver", "ic:/no/model,act=maybe", "builtin:null"}),
                     "pictor: driver 'ic': act=maybe is not one of hybrid, onsets, held (how probabilities become key "
                     "states (docs/intelligent-client.md))");
  expect_usage_error(run({"--adapter", "xvnc", "--net", "bandwidth=1mbit", "builtin:null"}),
                     "pictor: --net has no option 'bandwidth' (options: delay, jitter, loss, rate)");
  expect_usage_error(run({"--adapter", "xvnc", "--net", "loss=150%", "builtin:null"}),
                     "pictor: --net: loss=150% is not a share in [0%, 100%] (e.g. 0.5% or 0.005) (share of chunks lost, "
                     "each costing a retransmission delay)");
  expect_usage_error(run({"--adapter", "stream", "--stream", "gop=0", "builtin:null"}),
                     "pictor: --stream: gop=0 is not an integer in [1, 600] (keyframe interval in frames (a late or "
                     "lossy client restarts at the next one))");
  expect_usage_error(run({"--adapter", "stream", "--stream", "colour=red", "builtin:null"}),
                     "pictor: --stream has no option 'colour' (options: bitrate, preset, gop, transport, fps)");
  // --adapter is a spec like the others, checked by Pictor's parser (not CLI11's list).
  expect_usage_error(run({"--adapter", "vnc", "builtin:null"}), "pictor: unknown adapter 'vnc' (known: local, xvnc, x11vnc, stream, vncviewer, xpra, display)");
  expect_usage_error(run({"--adapter", "xvnc:quality=9", "builtin:null"}),
                     "pictor: adapter 'xvnc' has no option 'quality' (options: none)");
  expect_usage_error({"colocate", "-d", "2s", "-o", never, "--adapter", "vnc", "builtin:null", "builtin:spin"},
                     "pictor: unknown adapter 'vnc' (known: local, xvnc, x11vnc, stream, vncviewer, xpra, display)");
  EXPECT_FALSE(fs::exists(never)) << "nothing made before the specs were checked";
}

TEST_F(Cli, ListShowsEverySpecWithItsOptions) {
  const Result all = pictor({"list"});
  EXPECT_EQ(all.status, 0) << all.err;
  for (const char* part : {"scenes (pictor run builtin:NAME", "objects=N", "max_fps=X", "drivers (--driver",
                           "  scripted", "rate=X", "gated-replay", "REC", "game=racing|shooter|strategy",
                           "act=hybrid|onsets|held", "adapters (--adapter", "x11vnc", "net (--net",
                           "delay=DURATION", "rate=RATE", "stream (--adapter stream", "bitrate=RATE",
                           "transport=udp|tcp"})
    EXPECT_NE(all.out.find(part), std::string::npos) << part << " missing from\n" << all.out;
  const Result net = pictor({"list", "net"});
  EXPECT_EQ(net.status, 0);
  EXPECT_EQ(net.out.find("scenes"), std::string::npos) << net.out;
  EXPECT_NE(net.out.find("loss=SHARE"), std::string::npos) << net.out;
  const Result stream = pictor({"list", "stream"});
  EXPECT_EQ(stream.status, 0);
  EXPECT_EQ(stream.out.find("net ("), std::string::npos) << stream.out;
  EXPECT_NE(stream.out.find("a bare number is kbit/s"), std::string::npos) << stream.out;
  // The flags' help names what the declarations hold: every registered driver, every net option.
  const Result help = pictor({"run", "--help"});
  EXPECT_NE(help.out.find("scripted, gated-replay"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("NAME one of local, xvnc, x11vnc, stream"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("delay=...,jitter=...,loss=...,rate=..."), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("bitrate=8mbit,preset=ultrafast,gop=60,transport=udp,fps=60"), std::string::npos) << help.out;
  expect_usage_error({"list", "games"}, "pictor: list: what: games not in {scenes,drivers,adapters,net,stream} (see pictor list --help)");
}

TEST_F(Cli, BytesFromTheCommandLineAreEscaped) {
  expect_usage_error({"analyze", "a.csv", "\x1b[2J\nx"},
                     "pictor: analyze: the following argument was not expected: \\x1b[2J\\x0ax (see pictor analyze --help)");
}

TEST_F(Cli, HelpAndVersionAreNotErrors) {
  const Result help = pictor({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("Usage:"), std::string::npos);
  EXPECT_EQ(help.err, "");
  const Result version = pictor({"--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out, "pictor 0.1.0\n");
}

TEST_F(Cli, BadInputFilesGiveOneLineNamingFileAndCause) {
  // A NUL in a field cut the message after "column 'frame': '".
  const std::string nul = write("nul.csv", "frame,ctx,swap_ns\n0,1,0\n\0,1,5\n"s);
  expect_usage_error({"analyze", nul}, "pictor: " + nul + ":3: column 'frame': '\\x00' is not an integer");
  expect_usage_error({"analyze", "/dev/zero"}, "pictor: /dev/zero: is a character device, not a file Pictor can read");
  fs::create_directories(dir_ / "session" / "frames.csv");
  expect_usage_error({"analyze", (dir_ / "session").string()},
                     "pictor: " + (dir_ / "session" / "frames.csv").string() +
                         ": is a directory, not a file Pictor can read");
  expect_usage_error({"mark", "score", "/dev/zero"},
                     "pictor: /dev/zero: is a character device, not a file Pictor can read");
  const std::string dup = write("dup.csv", "frame,ctx,swap_ns,frame\n0,1,0,0\n");
  expect_usage_error({"analyze", dup}, "pictor: " + dup + ":1: column 'frame' appears twice in the header (columns 1 and 4)");
}

TEST_F(Cli, HugeValuesKeepTheTableColumnsApart) {
  // Frames 10^18 ns apart: each figure used to be printed in full, running into the next.
  const std::string f = write("huge.csv", "frame,ctx,swap_ns\n0,1,0\n1,1,1000000000000000000\n2,1,2000000000000000000\n");
  const Result r = pictor({"analyze", f});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto at = r.out.find("  n = 2");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string row = r.out.substr(at, r.out.find('\n', at) - at);
  EXPECT_EQ(row, "  n = 2              1.00e+12 1.00e+12 1.00e+12 1.00e+12 1.00e+12 1.00e+12 1.00e+12 1.00e+12");
}

}  // namespace
