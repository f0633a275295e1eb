// The results store on a real PostgreSQL server: this program starts one (initdb + pg_ctl, in a
// temporary directory, on a free loopback port, as `nobody` when run as root — the server refuses
// root), runs the same store tests as on SQLite against it and one real `pictor run --db
// postgresql://…` read back with `pictor db`, and stops it. Without the server's
// programs it exits 77, which CTest reports as skipped, saying why.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/files.h"
#include "db/connection.h"
#include "store_cases.h"

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

constexpr int kSkipped = 77;

struct Server {
  fs::path bin, dir;
  int port = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  bool started = false;
  std::string base_url() const { return "postgresql://pictor@127.0.0.1:" + std::to_string(port) + "/"; }
};
Server g_server;

// Runs a server program (as `nobody` when pictor's tests run as root); its exit status.
int run_as_server_user(const std::vector<std::string>& argv) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(g_server.gid) != 0 || ::setuid(g_server.uid) != 0)) ::_exit(126);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

std::string fresh_database() {
  static int n = 0;
  const std::string name = "store_test_" + std::to_string(++n);
  pictor::db::open_postgresql(g_server.base_url() + "postgres")->exec("CREATE DATABASE " + name, {});
  return g_server.base_url() + name;
}

std::string log_tail() {
  std::FILE* f = std::fopen((g_server.dir / "server.log").c_str(), "r");
  if (!f) return "(no server.log)";
  std::string text;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

// stdout of a shell command and its exit status.
std::string shell(const std::string& command, int& rc) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int status = ::pclose(pipe);
  rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return out;
}

}  // namespace

// The same server through the command a user types: a real session recorded with
// `pictor run --db postgresql://…`, then listed, shown and exported by `pictor db --db …`.
TEST(PostgresqlCli, ARunIsRecordedAndReadBackThroughPictor) {
  const std::string url = fresh_database();
  const fs::path out = g_server.dir / "session";
  int rc = 0;
  const std::string run = shell(std::string(PICTOR_BIN) + " --quiet run -d 1s --size 320x240 -o " + out.string() +
                                    " --db " + url + " builtin:null 2>&1", rc);
  ASSERT_EQ(rc, 0) << run;
  const std::string listed = shell(std::string(PICTOR_BIN) + " db --db " + url + " list --json", rc);
  ASSERT_EQ(rc, 0) << listed;
  const auto runs = nlohmann::json::parse(listed);
  ASSERT_EQ(runs.size(), 1u) << listed;
  EXPECT_EQ(runs[0]["kind"], "session");
  EXPECT_EQ(runs[0]["app"], "builtin:null");
  EXPECT_EQ(fs::path(runs[0]["dir"].get<std::string>()), out);
  const auto summary = nlohmann::json::parse(pictor::files::read_file(out / "summary.json"));
  const std::string shown = shell(std::string(PICTOR_BIN) + " db --db " + url + " show " +
                                      std::to_string(runs[0]["id"].get<long>()) + " --json", rc);
  ASSERT_EQ(rc, 0) << shown;
  const auto metrics = nlohmann::json::parse(shown)["metrics"];
  ASSERT_TRUE(metrics.contains("fps_avg")) << metrics.dump();
  EXPECT_DOUBLE_EQ(metrics["fps_avg"].get<double>(), summary["fps_avg"].get<double>());
  const std::string csv = shell(std::string(PICTOR_BIN) + " db --db " + url + " export --csv", rc);
  ASSERT_EQ(rc, 0) << csv;
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "id,kind,parent_id,start_time,app,adapter,driver,host,status,dir,metric,value");
  EXPECT_NE(csv.find(",fps_avg,"), std::string::npos) << csv.substr(0, 400);
}

namespace pictor::test {
INSTANTIATE_TEST_SUITE_P(Postgresql, StoreTest,
                         ::testing::Values(StoreEngine{"postgresql", fresh_database,
                                                       [](const std::string& l) { return db::open_postgresql(l); }}),
                         [](const ::testing::TestParamInfo<pictor::test::StoreEngine>& p) { return p.param.name; });
}  // namespace pictor::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Listing the tests (ctest, --gtest_list_tests) starts nothing.
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  const char* bin = std::getenv("PICTOR_TEST_PG_BIN");
  g_server.bin = bin && *bin ? bin : "/usr/lib/postgresql/15/bin";
  if (!fs::exists(g_server.bin / "initdb") || !fs::exists(g_server.bin / "pg_ctl")) {
    std::printf("skipped: no PostgreSQL server programs in %s (Debian package postgresql; scripts/setup.sh --tests installs "
                "it)\n", g_server.bin.c_str());
    return kSkipped;
  }
  if (::geteuid() == 0) {
    const passwd* nobody = ::getpwnam("nobody");
    if (!nobody) {
      std::printf("skipped: running as root and there is no user 'nobody' to run the PostgreSQL server as\n");
      return kSkipped;
    }
    g_server.uid = nobody->pw_uid;
    g_server.gid = nobody->pw_gid;
  }
  g_server.dir = fs::temp_directory_path() / ("pictor-pg-test-" + std::to_string(::getpid()));
  fs::remove_all(g_server.dir);
  fs::create_directories(g_server.dir);
  if (::geteuid() == 0 && ::chown(g_server.dir.c_str(), g_server.uid, g_server.gid) != 0) {
    std::printf("cannot hand %s to nobody\n", g_server.dir.c_str());
    return 1;
  }
  const std::string data = (g_server.dir / "data").string();
  if (run_as_server_user({(g_server.bin / "initdb").string(), "-D", data, "-U", "pictor", "-A", "trust", "-E", "UTF8",
                          "--no-sync", "--no-instructions"}) != 0) {
    std::printf("initdb failed\n");
    fs::remove_all(g_server.dir);
    return 1;
  }
  int code = 1;
  for (int attempt = 0; attempt < 3 && !g_server.started; ++attempt) {
    g_server.port = free_loopback_port();
    // Loopback only; the socket directory inside the temporary directory, not /var/run.
    const std::string options = "-p " + std::to_string(g_server.port) + " -k " + g_server.dir.string() +
                                " -c listen_addresses=127.0.0.1 -c fsync=off";
    g_server.started = run_as_server_user({(g_server.bin / "pg_ctl").string(), "start", "-w", "-t", "60", "-D", data, "-l",
                                           (g_server.dir / "server.log").string(), "-o", options}) == 0;
  }
  if (g_server.started) {
    std::printf("PostgreSQL on 127.0.0.1:%d (%s)\n", g_server.port, g_server.dir.c_str());
    code = RUN_ALL_TESTS();
    run_as_server_user({(g_server.bin / "pg_ctl").string(), "stop", "-w", "-m", "fast", "-D", data});
  } else {
    std::printf("the PostgreSQL server did not start:\n%s\n", log_tail().c_str());
  }
  fs::remove_all(g_server.dir);
  return code;
}
