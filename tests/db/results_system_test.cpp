// The results database and live metrics as a user meets them: real `pictor run` sessions on
// Xvfb + llvmpipe recorded (two at once into one database), read back with `pictor db`, compared
// by id; a database that cannot be written and a report.html that cannot be written noted in
// run.json's write_errors without failing the session; the /metrics endpoint scraped with curl
// while a session runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "helpers.h"
#include "runner/adapter.h"

using namespace pictor::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::vector<std::string> kShortSession = {"-d", "1s", "--size", "320x240", "builtin:null"};

std::vector<std::string> pictor_cmd(std::vector<std::string> args) {
  args.insert(args.begin(), PICTOR_BIN);
  return args;
}

std::vector<std::string> run_args(const std::vector<std::string>& extra) {
  std::vector<std::string> a = {PICTOR_BIN, "run"};
  a.insert(a.end(), kShortSession.begin(), kShortSession.end());
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::optional<double> prometheus_value(const std::string& text, const std::string& name) {
  // The first line "NAME{labels} VALUE" (found by hand: std::regex trips GCC 12's
  // -Wmaybe-uninitialized in the sanitizer build).
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.compare(0, name.size() + 1, name + "{") != 0) continue;
    const auto close = line.find("} ", name.size());
    if (close == std::string::npos) continue;
    const std::string value = line.substr(close + 2);
    if (value.empty() || value.find_first_not_of("-0123456789.e+") != std::string::npos) continue;
    return std::stod(value);
  }
  return std::nullopt;
}

}  // namespace

TEST(ResultsDatabase, SessionsRecordedAtOnceAllLandAndReadBack) {
  const std::string root = fresh_dir("db-two");
  const std::string db = root + "/results.db";
  // Two sessions finishing at about the same moment, each its own pictor process.
  CommandResult a, b;
  std::thread ta([&] { a = run_command(run_args({"--out", root + "/a", "--db", db})); });
  std::thread tb([&] { b = run_command(run_args({"--out", root + "/b", "--db", db})); });
  ta.join();
  tb.join();
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(a.err.find("pictor: recorded as run "), std::string::npos) << a.err;

  const CommandResult list = run_command(pictor_cmd({"db", "--db", db, "list", "--json"}));
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const json runs = json::parse(list.out);
  ASSERT_EQ(runs.size(), 2u);
  std::map<std::string, std::int64_t> id_of;
  for (const json& r : runs) id_of[fs::path(r["dir"].get<std::string>()).filename().string()] = r["id"];
  ASSERT_TRUE(id_of.count("a") && id_of.count("b"));

  const CommandResult show = run_command(pictor_cmd({"db", "--db", db, "show", std::to_string(id_of["a"]), "--json"}));
  ASSERT_EQ(show.exit_code, 0) << show.err;
  const json s = json::parse(show.out);
  const json summary = read_json(root + "/a/summary.json");
  const json run = read_json(root + "/a/run.json");
  EXPECT_EQ(s["dir"], fs::canonical(root + "/a").string());
  EXPECT_EQ(s["kind"], "session");
  EXPECT_EQ(s["app"], "builtin:null");
  EXPECT_EQ(s["adapter"], "local");
  EXPECT_EQ(s["status"], "ok");
  EXPECT_EQ(s["start_time"], run["start_time"]);
  EXPECT_EQ(s["command_line"], run["command_line"]);
  EXPECT_EQ(s["host"], run["machine"]["hostname"]);
  EXPECT_EQ(s["options"]["size"], "320x240");
  // Every figure exactly as summary.json has it.
  EXPECT_EQ(s["metrics"]["fps_avg"], summary["fps_avg"]);
  EXPECT_EQ(s["metrics"]["frame_ms.p99"], summary["frame_ms"]["p99"]);
  EXPECT_EQ(s["metrics"]["frames"], summary["frames"]);
  EXPECT_EQ(run["write_errors"], json::object());

  const CommandResult text = run_command(pictor_cmd({"db", "--db", db, "list", "--app", "null"}));
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find(fs::canonical(root + "/b").string()), std::string::npos) << text.out;
  EXPECT_EQ(run_command(pictor_cmd({"db", "--db", db, "list", "--json", "--adapter", "xvnc"})).out, "[]\n");

  const CommandResult csv = run_command(pictor_cmd({"db", "--db", db, "export", "--csv"}));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')), "id,kind,parent_id,start_time,app,adapter,driver,host,status,dir,metric,value");
  EXPECT_NE(csv.out.find(",fps_avg,"), std::string::npos);

  // compare takes the ids for the directories.
  const CommandResult cmp = run_command(pictor_cmd({"compare", std::to_string(id_of["a"]), std::to_string(id_of["b"]), "--db", db,
                                               "--out", root + "/cmp"}));
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const json c = read_json(root + "/cmp/compare.json");
  EXPECT_EQ(c["a"]["units"][0]["sessions"][0], fs::canonical(root + "/a").string());
  EXPECT_EQ(c["b"]["units"][0]["sessions"][0], fs::canonical(root + "/b").string());
  const CommandResult missing = run_command(pictor_cmd({"compare", "999", std::to_string(id_of["b"]), "--db", db, "--out", root + "/c2"}));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.last_err_line().find("no run 999 in the results database"), std::string::npos) << missing.err;
}

TEST(ResultsDatabase, ARepeatRunIsRecordedWithItsSessions) {
  const std::string root = fresh_dir("db-repeat");
  const std::string db = root + "/results.db";
  const CommandResult r = run_command(run_args({"--repeat", "2", "--out", root + "/rep", "--db", db}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json runs = json::parse(run_command(pictor_cmd({"db", "--db", db, "list", "--json"})).out);
  ASSERT_EQ(runs.size(), 3u);
  std::int64_t repeat_id = 0;
  for (const json& x : runs)
    if (x["kind"] == "repeat") repeat_id = x["id"];
  ASSERT_NE(repeat_id, 0);
  const json s = json::parse(run_command(pictor_cmd({"db", "--db", db, "show", std::to_string(repeat_id), "--json"})).out);
  ASSERT_EQ(s["children"].size(), 2u);
  EXPECT_EQ(s["children"][0]["parent_id"], repeat_id);
  EXPECT_EQ(s["children"][1]["dir"], fs::canonical(root + "/rep/repeat-2").string());
  EXPECT_TRUE(s["metrics"]["fps_avg.mean"].is_number());
}

TEST(ResultsDatabase, TheDefaultLocationFollowsXdgDataHomeAndNoDbSkipsIt) {
  const std::string root = fresh_dir("db-default");
  std::vector<std::string> a = {"env", "XDG_DATA_HOME=" + root + "/xdg"};
  for (const std::string& s : run_args({"--out", root + "/s"})) a.push_back(s);
  const CommandResult r = run_command(a);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(root + "/xdg/pictor/results.db"));
  const CommandResult list = run_command({"env", "XDG_DATA_HOME=" + root + "/xdg", PICTOR_BIN, "db", "list", "--json"});
  EXPECT_EQ(json::parse(list.out).size(), 1u) << list.err;

  std::vector<std::string> none = {"env", "XDG_DATA_HOME=" + root + "/xdg2"};
  for (const std::string& s : run_args({"--out", root + "/n", "--no-db"})) none.push_back(s);
  ASSERT_EQ(run_command(none).exit_code, 0);
  EXPECT_FALSE(fs::exists(root + "/xdg2"));
}

TEST(ResultsDatabase, ADatabaseThatCannotBeWrittenIsOneWarningAndAWriteError) {
  const std::string root = fresh_dir("db-broken");
  fs::create_directories(root + "/not-a-file.db");  // SQLite cannot open a directory
  const CommandResult r = run_command(run_args({"--out", root + "/s", "--db", root + "/not-a-file.db"}));
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the session stands
  EXPECT_NE(r.err.find("pictor: warning: not recorded in the results database"), std::string::npos) << r.err;
  const json run = read_json(root + "/s/run.json");
  ASSERT_TRUE(run["write_errors"].contains("results database")) << run["write_errors"].dump();
  EXPECT_NE(run["write_errors"]["results database"]["error"].get<std::string>().find("cannot open"), std::string::npos);
  EXPECT_EQ(run["status"], "ok");
  EXPECT_TRUE(fs::exists(root + "/s/summary.json"));
  EXPECT_TRUE(fs::exists(root + "/s/report.html"));
}

TEST(SessionWriteErrors, AReportThatCannotBeWrittenIsInRunJson) {
  const std::string root = fresh_dir("report-fails");
  const std::string dir = root + "/s";
  CommandResult r;
  std::thread t([&] { r = run_command(pictor_cmd({"run", "-d", "3s", "--size", "320x240", "builtin:null", "--out", dir, "--no-db"})); });
  // While the session runs, a directory takes report.html's name: the page cannot be put there.
  bool blocked = false;
  for (int i = 0; i < 300 && !blocked; ++i) {
    if (fs::exists(dir + "/run.json")) {
      fs::create_directories(dir + "/report.html/in-the-way");
      blocked = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  t.join();
  ASSERT_TRUE(blocked);
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a page that cannot be written never fails the session
  EXPECT_NE(r.err.find("report.html not written"), std::string::npos) << r.err;
  const json run = read_json(dir + "/run.json");
  ASSERT_TRUE(run["write_errors"].contains("report.html")) << run.dump(2);
  EXPECT_EQ(run["write_errors"]["report.html"]["written_by"], "pictor");
  EXPECT_FALSE(run["write_errors"]["report.html"]["error"].get<std::string>().empty());
  EXPECT_EQ(run["status"], "ok");
}

TEST(LiveMetrics, ScrapedWithCurlWhileARealSessionRuns) {
  if (run_command({"sh", "-c", "command -v curl"}).exit_code != 0)
    FAIL() << "curl not found: run scripts/setup.sh --tests (make test does)";
  const std::string root = fresh_dir("live");
  const int port = pictor::runner::pick_free_port();
  ASSERT_GT(port, 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  CommandResult r;
  std::thread t([&] {
    r = run_command(pictor_cmd({"run", "-d", "6s", "--size", "320x240", "--driver", "scripted:rate=5,seed=3", "builtin:latency",
                            "--metrics-listen", "127.0.0.1:" + std::to_string(port), "--out", root + "/s", "--no-db"}));
  });
  std::vector<std::string> scrapes;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < until && !fs::exists(root + "/s/summary.json")) {
    const CommandResult c = run_command({"curl", "-sf", "--max-time", "2", url});
    if (c.exit_code == 0) scrapes.push_back(c.out);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  t.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GE(scrapes.size(), 3u) << r.err;
  // A later scrape has more frames than an earlier one: the figures follow the session live.
  const std::string& last = scrapes.back();
  const auto first_frames = prometheus_value(scrapes.front(), "pictor_frames_total");
  const auto last_frames = prometheus_value(last, "pictor_frames_total");
  ASSERT_TRUE(first_frames && last_frames) << last;
  EXPECT_GT(*last_frames, *first_frames);
  const json summary = read_json(root + "/s/summary.json");
  EXPECT_LE(*last_frames, summary["frames"].get<double>());
  ASSERT_TRUE(prometheus_value(last, "pictor_fps")) << last;
  EXPECT_GT(*prometheus_value(last, "pictor_fps"), 0);
  EXPECT_NE(last.find("pictor_frame_time_ms{app=\"builtin:latency\",quantile=\"0.99\"}"), std::string::npos) << last;
  EXPECT_GT(*prometheus_value(last, "pictor_inputs_sent_total"), 0);
  EXPECT_GT(*prometheus_value(last, "pictor_inputs_matched_total"), 0) << last;
  EXPECT_GT(*prometheus_value(last, "pictor_rtt_last_ms"), 0);
  EXPECT_NE(last.find("pictor_process_cpu_percent{app=\"builtin:latency\",role=\"app\""), std::string::npos) << last;
  // The session is over: nothing listens there any more.
  EXPECT_NE(run_command({"curl", "-sf", "--max-time", "2", url}).exit_code, 0);
}

TEST(LiveMetrics, ABadAddressIsAUsageErrorBeforeAnythingStarts) {
  const std::string root = fresh_dir("live-bad");
  for (const std::string bad : {"127.0.0.1:99999", "nowhere:9464"}) {
    const CommandResult r = run_command(run_args({"--metrics-listen", bad, "--out", root + "/s", "--no-db"}));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.last_err_line().find("pictor: --metrics-listen '" + bad + "'"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(root + "/s"));
  }
}
