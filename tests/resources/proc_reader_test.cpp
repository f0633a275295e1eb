// ProcFs on a fixture tree shaped like /proc: a process tree found through task/*/children, a
// child that vanished between the parent's children file and its own stat, and a process whose
// stat was cut short.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <filesystem>
#include <fstream>

#include "resources/proc_reader.h"

using namespace pictor::resources;
namespace fs = std::filesystem;

namespace {

std::string stat_line(int pid, const std::string& comm, int ppid, int utime) {
  return std::to_string(pid) + " (" + comm + ") S " + std::to_string(ppid) + " 1 1 0 -1 0 10 0 0 0 " +
         std::to_string(utime) + " 5 0 0 20 0 1 0 " + std::to_string(1000 + pid) + " 0 100 0\n";
}

class Fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("pictor-procfs-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    write("100/stat", stat_line(100, "app main", 1, 50));
    write("100/status", "Threads:\t2\nVmRSS:\t2048 kB\nvoluntary_ctxt_switches:\t7\nnonvoluntary_ctxt_switches:\t1\n");
    write("100/io", "rchar: 1\nwchar: 2\nread_bytes: 3\nwrite_bytes: 4\n");
    write("100/task/100/stat", stat_line(100, "app main", 1, 30));
    write("100/task/100/children", "101 ");
    write("100/task/105/stat", stat_line(105, "llvmpipe-0", 1, 20));
    write("100/task/105/children", "103 ");
    write("101/stat", stat_line(101, "child", 100, 9));
    write("101/task/101/children", "102 104 ");
    write("102/stat", "102 (vanish");   // cut short: exiting
    fs::create_directories(root_ / "104");  // gone: the directory outlived its files
    write("103/stat", stat_line(103, "helper", 100, 1));
    write("103/task/103/children", "");
    write("stat", "cpu  10 0 5 100 0 0 0 0 0 0\ncpu0 10 0 5 100 0 0 0 0 0 0\n");
    write("meminfo", "MemTotal: 1000 kB\nMemAvailable: 400 kB\n");
    write("loadavg", "1.50 1.00 0.50 1/100 42\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  fs::path root_;
};

}  // namespace

TEST_F(Fixture, ReadsAProcess) {
  const ProcFs proc(root_.string());
  const auto r = proc.process(100);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->stat.comm, "app main");
  EXPECT_EQ(r->stat.utime_ticks, 50u);
  EXPECT_EQ(r->status.rss_kb, 2048);
  EXPECT_EQ(r->io.write_bytes, 4u);
  EXPECT_EQ(proc.threads(100), (std::vector<pid_t>{100, 105}));
  const auto t = proc.thread(100, 105);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->stat.comm, "llvmpipe-0");
  EXPECT_FALSE(t->status.rss_kb);  // a thread's row has no memory of its own
}

TEST_F(Fixture, VanishedProcessesAreGoneNotZero) {
  const ProcFs proc(root_.string());
  EXPECT_FALSE(proc.process(102));  // stat cut short
  EXPECT_FALSE(proc.process(104));  // no stat any more
  EXPECT_FALSE(proc.process(999));  // never there
}

TEST_F(Fixture, DescendantsThroughEveryThreadsChildren) {
  const ProcFs proc(root_.string());
  // 101 from the main thread, 103 from the llvmpipe thread (a thread's fork is its child), then
  // 101's children; the vanished ones are listed (their parents named them) and read as gone.
  EXPECT_EQ(proc.descendants(100), (std::vector<pid_t>{101, 103, 102, 104}));
  EXPECT_TRUE(proc.descendants(103).empty());
}

TEST_F(Fixture, DescendantsByScanWithoutChildrenFiles) {
  // A kernel without CONFIG_PROC_CHILDREN: the ppid of every stat.
  fs::remove(root_ / "100/task/100/children");
  fs::remove(root_ / "100/task/105/children");
  fs::remove(root_ / "101/task/101/children");
  fs::remove(root_ / "103/task/103/children");
  const ProcFs proc(root_.string());
  // 102 and 104 have no readable stat, so no ppid: a scan cannot find them.
  EXPECT_EQ(proc.descendants(100), (std::vector<pid_t>{101, 103}));
}

TEST_F(Fixture, Machine) {
  const ProcFs proc(root_.string());
  ASSERT_EQ(proc.cpus().size(), 2u);
  EXPECT_EQ(proc.memory().available_kb, 400);
  EXPECT_DOUBLE_EQ(proc.load()->load1, 1.5);
}

TEST(ProcFsLive, OwnProcessAndAChild) {
  const ProcFs proc;
  const auto self = proc.process(::getpid());
  ASSERT_TRUE(self);
  EXPECT_GT(*self->status.rss_kb, 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  const auto d = proc.descendants(::getpid());
  EXPECT_NE(std::find(d.begin(), d.end(), child), d.end());
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_FALSE(proc.process(child));
}
