// The proxy writer: row format of every record kind, the file it writes from the ring, and
// proxy.json's counts, qualities and parse problems.
#include "proxyhook/event_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <algorithm>
#include <chrono>
#include <thread>

#include "core/tmpfs.h"
#include "proxyhook/rfb_input_parser.h"

namespace pictor::proxyhook {
namespace {

namespace fs = std::filesystem;

std::string row(const ProxyRecord& r) {
  char buf[256];
  const std::size_t n = format_event_row(r, buf, sizeof buf);
  return std::string(buf, n);
}

TEST(ProxyEventRow, EveryKindHasItsColumns) {
  ProxyRecord in;
  in.kind = ProxyRecordKind::input;
  in.input = InputKind::key;
  in.fd = 7;
  in.start_ns = in.end_ns = 1000;
  in.detail = 0x61;
  in.down = 1;
  EXPECT_EQ(row(in), "input,1000,1000,7,,key,97,1,,,,,,\n");

  ProxyRecord j;
  j.kind = ProxyRecordKind::jpeg;
  j.start_ns = 5;
  j.end_ns = 9;
  j.bytes = 1234;
  j.width = 640;
  j.height = 360;
  j.quality = 42;
  j.detail = static_cast<std::int64_t>(EncoderCall::jpeg_compress);
  EXPECT_EQ(row(j), "jpeg,5,9,,1234,,,,,,640,360,42,jpeg_start_compress\n");

  // Every encoder names its function in `call`; its detail (the call's number) is not printed.
  ProxyRecord z;
  z.kind = ProxyRecordKind::zlib;
  z.start_ns = 20;
  z.end_ns = 25;
  z.bytes = 77;
  z.detail = static_cast<std::int64_t>(EncoderCall::deflate);
  EXPECT_EQ(row(z), "zlib,20,25,,77,,,,,,,,,deflate\n");
  z.detail = static_cast<std::int64_t>(EncoderCall::deflate_init2);
  z.bytes = -1;
  EXPECT_EQ(row(z), "zlib,20,25,,,,,,,,,,,deflateInit2_\n");
  ProxyRecord l;
  l.kind = ProxyRecordKind::lzo;
  l.start_ns = 1;
  l.end_ns = 2;
  l.bytes = 10;
  l.detail = static_cast<std::int64_t>(EncoderCall::lzo1x_1_compress);
  EXPECT_EQ(row(l), "lzo,1,2,,10,,,,,,,,,lzo1x_1_compress\n");

  ProxyRecord c;
  c.kind = ProxyRecordKind::cork;
  c.fd = 7;
  c.start_ns = 30;
  c.end_ns = 31;
  c.detail = 1;
  EXPECT_EQ(row(c), "cork,30,31,7,,,1,,,,,,,\n");

  ProxyRecord w;
  w.kind = ProxyRecordKind::write;
  w.fd = 7;
  w.start_ns = 10;
  w.end_ns = 12;
  w.bytes = 0;
  EXPECT_EQ(row(w), "write,10,12,7,0,,,,,,,,,\n");

  ProxyRecord p;
  p.kind = ProxyRecordKind::parse_stop;
  EXPECT_EQ(row(p), "");  // proxy.json only
}

TEST(ProxyEventRow, TooSmallBufferWritesNothing) {
  ProxyRecord r;
  r.kind = ProxyRecordKind::write;
  r.start_ns = 123456789;
  char buf[8];
  EXPECT_EQ(format_event_row(r, buf, sizeof buf), 0u);
}

HookStatus fake_status() {
  HookStatus s;
  s.found = {"read", "write"};
  s.missing = {"tjCompress2"};
  s.motion_events = 3;
  return s;
}

TEST(EventWriter, DrainsTheRingIntoTheFileAndSummarisesInProxyJson) {
  const fs::path dir = fs::temp_directory_path() / ("pictor_proxyw_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    EventWriter w(WriterSettings{dir.string(), "xvnc", 5901}, fake_status, 64);
    ASSERT_TRUE(w.start()) << w.error();
    // From another thread, as the proxy's threads push.
    std::thread t([&] {
      for (int i = 0; i < 10; ++i) {
        ProxyRecord r;
        r.kind = ProxyRecordKind::write;
        r.fd = 9;
        r.start_ns = 100 + i;
        r.end_ns = 101 + i;
        r.bytes = 10;
        w.push(r);
      }
      ProxyRecord j;
      j.kind = ProxyRecordKind::jpeg;
      j.quality = 15;
      w.push(j);
      for (const ProxyRecordKind k : {ProxyRecordKind::zlib, ProxyRecordKind::zlib, ProxyRecordKind::cork}) {
        ProxyRecord e;
        e.kind = k;
        e.detail = k == ProxyRecordKind::zlib ? static_cast<std::int64_t>(EncoderCall::deflate) : 1;
        w.push(e);
      }
      ProxyRecord p;
      p.kind = ProxyRecordKind::parse_stop;
      p.fd = 9;
      p.detail = static_cast<int>(ParseProblem::unknown_message);
      p.x = 77;
      w.push(p);
    });
    t.join();
    w.stop();
  }
  std::ifstream csv(dir / "proxy_events.csv");
  std::string line;
  std::getline(csv, line);  // the header row first: any CSV reader opens the file
  EXPECT_EQ(line, "kind,start_ns,end_ns,fd,bytes,input,detail,down,x,y,width,height,quality,call");
  int writes = 0, jpegs = 0, zlibs = 0, corks = 0, other = 0;
  while (std::getline(csv, line)) {
    if (line.rfind("write,", 0) == 0) ++writes;
    else if (line.rfind("jpeg,", 0) == 0) ++jpegs;
    else if (line.rfind("zlib,", 0) == 0) ++zlibs;
    else if (line.rfind("cork,", 0) == 0) ++corks;
    else ++other;
  }
  EXPECT_EQ(writes, 10);
  EXPECT_EQ(jpegs, 1);
  EXPECT_EQ(zlibs, 2);
  EXPECT_EQ(corks, 1);
  EXPECT_EQ(other, 0);

  const auto j = nlohmann::json::parse(std::ifstream(dir / "proxy.json"));
  EXPECT_EQ(j["proxy"], "xvnc");
  EXPECT_EQ(j["port"], 5901);
  EXPECT_EQ(j["counts"]["writes"], 10);
  EXPECT_EQ(j["counts"]["write_bytes"], 100);
  EXPECT_EQ(j["counts"]["motion_events"], 3);
  EXPECT_EQ(j["counts"]["zlib_calls"], 2);
  EXPECT_EQ(j["counts"]["lzo_calls"], 0);
  EXPECT_EQ(j["counts"]["corks"], 1);
  EXPECT_EQ(j["jpeg_quality_seen"], nlohmann::json::array({15}));
  EXPECT_EQ(j["hooks"]["missing"], nlohmann::json::array({"tjCompress2"}));
  ASSERT_EQ(j["parse_problems"].size(), 1u);
  EXPECT_NE(j["parse_problems"][0].get<std::string>().find("message type 77"), std::string::npos);
  EXPECT_EQ(j["records_dropped"], 0);
  fs::remove_all(dir);
}

TEST(EventWriter, SecondProcessInTheSameDirectoryGetsItsOwnFile) {
  const fs::path dir = fs::temp_directory_path() / ("pictor_proxyw2_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "proxy_events.csv") << "taken\n";
  EventWriter w(WriterSettings{dir.string(), "x11vnc", -1}, nullptr, 16);
  ASSERT_TRUE(w.start());
  EXPECT_EQ(fs::path(w.events_path()).filename(), "proxy_events." + std::to_string(getpid()) + ".csv");
  w.stop();
  EXPECT_TRUE(fs::exists(dir / ("proxy." + std::to_string(getpid()) + ".json")));
  fs::remove_all(dir);
}

TEST(EventWriter, UnwritableDirectoryIsAnErrorNotACrash) {
  EventWriter w(WriterSettings{"/nonexistent/pictor", "xvnc", 1}, nullptr, 16);
  EXPECT_FALSE(w.start());
  EXPECT_NE(w.error().find("/nonexistent/pictor/proxy_events.csv"), std::string::npos);
}


// A full disk: proxy_events.csv ends at a whole row, proxy.json (rewritten in place) counts the
// rows lost and names the reason, and no temporary file is left.
TEST(EventWriter, AFullDiskLosesWholeRowsAndSaysHowMany) {
  test::Tmpfs t("64k");
  PICTOR_SKIP_WITHOUT_TMPFS(t);
  constexpr int kRecords = 3000;  // ~100 KB of rows
  {
    EventWriter w(WriterSettings{t.path().string(), "xvnc", 5901}, fake_status, 4096);
    ASSERT_TRUE(w.start()) << w.error();
    t.fill("filler");
    for (int i = 0; i < kRecords; ++i) {
      ProxyRecord r;
      r.kind = ProxyRecordKind::write;
      r.fd = 9;
      r.start_ns = 1'000'000'000 + i;
      r.end_ns = 1'000'000'100 + i;
      r.bytes = 1000 + i;
      while (!w.push(r)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    w.stop();
  }
  std::ifstream csv(t.path() / "proxy_events.csv");
  std::string text((std::istreambuf_iterator<char>(csv)), {});
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n') << "the file must end at a whole row";
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  const auto columns = std::count(line.begin(), line.end(), ',');
  std::uint64_t rows = 0;
  while (std::getline(lines, line)) {
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), columns) << line;
    ++rows;
  }
  const auto j = nlohmann::json::parse(std::ifstream(t.path() / "proxy.json"));
  const auto& e = j["write_errors"]["proxy_events.csv"];
  ASSERT_TRUE(e.is_object()) << j.dump(2);
  EXPECT_EQ(e["error"], "No space left on device");
  EXPECT_EQ(e["rows_written"].get<std::uint64_t>(), rows + 1);  // the header row too
  EXPECT_EQ(e["rows_lost"].get<std::uint64_t>(), kRecords - rows);
  EXPECT_GT(e["rows_lost"].get<std::uint64_t>(), 0u);
  EXPECT_GT(e["failed_writes"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(j["counts"]["writes"], kRecords);  // counted from the records, whatever the file kept
  for (const auto& f : fs::directory_iterator(t.path())) EXPECT_NE(f.path().extension(), ".tmp") << f.path();
}

}  // namespace
}  // namespace pictor::proxyhook
