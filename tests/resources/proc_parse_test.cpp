// The /proc parsers on the texts the kernel writes, and on what a process that exits mid-read
// leaves: a truncated or empty file is "not read", never zeros.
#include <gtest/gtest.h>

#include "resources/proc_parse.h"

using namespace pictor::resources;

namespace {

// A real stat line (from a Debian 12 kernel), with the fields the parser reads marked by value.
const char* kStat =
    "4242 (my (odd) app) R 4200 4242 4200 34816 4242 4194560 1234 0 7 0 250 40 0 0 20 0 6 0 987654 "
    "1000000000 3000 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n";

}  // namespace

TEST(ProcParse, StatWithSpacesAndParenthesesInComm) {
  const auto s = parse_pid_stat(kStat);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->pid, 4242);
  EXPECT_EQ(s->comm, "my (odd) app");
  EXPECT_EQ(s->state, 'R');
  EXPECT_EQ(s->ppid, 4200);
  EXPECT_EQ(s->minor_faults, 1234u);
  EXPECT_EQ(s->major_faults, 7u);
  EXPECT_EQ(s->utime_ticks, 250u);
  EXPECT_EQ(s->stime_ticks, 40u);
  EXPECT_EQ(s->threads, 6);
  EXPECT_EQ(s->start_ticks, 987654u);
  EXPECT_EQ(s->rss_pages, 3000);
}

TEST(ProcParse, CommThatLooksLikeFields) {
  // A comm may hold ") R 1 " itself: only the last ')' ends it.
  const auto s = parse_pid_stat("7 (x) R 1 ) S 3 7 7 0 -1 0 5 0 0 0 11 12 0 0 20 0 1 0 99 0 42 0\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->comm, "x) R 1 ");
  EXPECT_EQ(s->ppid, 3);
  EXPECT_EQ(s->utime_ticks, 11u);
  EXPECT_EQ(s->rss_pages, 42);
}

TEST(ProcParse, TruncatedOrVanishedStatIsNotRead) {
  EXPECT_FALSE(parse_pid_stat(""));  // the process exited between open and read
  EXPECT_FALSE(parse_pid_stat("4242 (my (odd) app"));
  const std::string full = kStat;
  EXPECT_FALSE(parse_pid_stat(full.substr(0, full.find(" 987654"))));  // cut before start time
  EXPECT_FALSE(parse_pid_stat("abc (x) R 1 2 3"));
}

TEST(ProcParse, Status) {
  const auto s = parse_pid_status("Name:\tXvnc\nThreads:\t3\nVmRSS:\t   51234 kB\nvoluntary_ctxt_switches:\t812\n"
                                  "nonvoluntary_ctxt_switches:\t19\n");
  EXPECT_EQ(s.rss_kb, 51234);
  EXPECT_EQ(s.threads, 3);
  EXPECT_EQ(s.voluntary_switches, 812);
  EXPECT_EQ(s.involuntary_switches, 19);
  // A kernel thread has no VmRSS; a file cut mid-line leaves that line unread.
  const auto cut = parse_pid_status("Name:\tkworker\nThreads:\t1\nvoluntary_ctxt_switches:\t81");
  EXPECT_FALSE(cut.rss_kb);
  EXPECT_EQ(cut.threads, 1);
  EXPECT_FALSE(cut.voluntary_switches);
  EXPECT_FALSE(cut.involuntary_switches);
}

TEST(ProcParse, Io) {
  const auto io = parse_pid_io("rchar: 100\nwchar: 200\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\nwrite_bytes: 8192\n"
                               "cancelled_write_bytes: 0\n");
  EXPECT_EQ(io.rchar, 100u);
  EXPECT_EQ(io.wchar, 200u);
  EXPECT_EQ(io.read_bytes, 4096u);
  EXPECT_EQ(io.write_bytes, 8192u);
  EXPECT_FALSE(parse_pid_io("").read_bytes);  // EACCES or gone: empty, not zero
}

TEST(ProcParse, ProcStatCpuLines) {
  const auto cpus = parse_proc_stat(
      "cpu  100 5 50 800 10 1 2 3 0 0\ncpu0 60 5 30 400 5 1 1 2 0 0\ncpu1 40 0 20 400 5 0 1 1 0 0\n"
      "intr 12345\nctxt 999\ncpu2 1 2");
  ASSERT_EQ(cpus.size(), 3u);  // the cut last line is left out
  EXPECT_EQ(cpus[0].name, "cpu");
  EXPECT_EQ(cpus[0].busy(), 100u + 5 + 50 + 1 + 2);
  EXPECT_EQ(cpus[0].total(), 158u + 800 + 10 + 3);
  EXPECT_EQ(cpus[2].name, "cpu1");
}

TEST(ProcParse, MeminfoLoadavgChildren) {
  const auto m = parse_meminfo("MemTotal:       16318480 kB\nMemFree:  1000 kB\nMemAvailable:   12000000 kB\n");
  EXPECT_EQ(m.total_kb, 16318480);
  EXPECT_EQ(m.available_kb, 12000000);
  const auto l = parse_loadavg("0.52 0.61 0.70 2/345 6789\n");
  ASSERT_TRUE(l);
  EXPECT_DOUBLE_EQ(l->load1, 0.52);
  EXPECT_DOUBLE_EQ(l->load15, 0.70);
  EXPECT_FALSE(parse_loadavg("0.52 0.6"));
  EXPECT_EQ(parse_children("101 102 "), (std::vector<int>{101, 102}));
  EXPECT_TRUE(parse_children("").empty());
}
