// The stages of real sessions as a user runs them (issue 13): per input, the inputs.csv columns
// partition the RTT on every adapter, and over both VNC proxies CP and SS are known for flat-colour
// frames, which Tight sends without JPEG.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "helpers.h"

using namespace pictor::test;

namespace {

// The partition columns as inputs.csv names them (docs/client.md "Stages").
const char* const kColumns[] = {"CS_ms", "SP_ms", "wait_app_ms", "PS_ms", "AL_ms", "AS_ms", "wait_later_frame_ms",
                                "wait_proxy_ms", "CP_ms", "SS_ms", "unattributed_ms"};

// inputs.csv as rows of named cells (lines starting with '#' skipped, the first other line is the header).
std::vector<std::map<std::string, std::string>> read_inputs(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    if (line.back() == ',') cells.emplace_back();
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json run_session(const std::string& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> argv{PICTOR_BIN, "--quiet", "run", "-o", dir, "--size", "640x360"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run_command(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_json(dir + "/summary.json");
}

class StagePartition : public ::testing::TestWithParam<std::string> {};

TEST_P(StagePartition, ColumnsSumToTheRttOfEveryMatchedInput) {
  const std::string adapter = GetParam();
  const std::string dir = fresh_dir("stages-" + adapter);
  const auto s = run_session(dir, {"--adapter", adapter, "--driver", "scripted:rate=5,keys=Up|Left,seed=3",
                                   "builtin:racing", "-d", "6s"});
  const int matched = s["inputs"]["matched"].get<int>();
  ASSERT_GE(matched, 15) << s["inputs"].dump();
  int checked = 0;
  for (const auto& row : read_inputs(dir + "/inputs.csv")) {
    if (row.at("status") != "matched") continue;
    double sum = 0;
    for (const char* c : kColumns) {
      ASSERT_TRUE(row.count(c)) << c << " missing from inputs.csv";
      if (!row.at(c).empty()) {
        const double v = std::stod(row.at(c));
        EXPECT_GE(v, 0.0) << c << " of tag " << row.at("tag");
        sum += v;
      }
    }
    EXPECT_NEAR(sum, std::stod(row.at("rtt_ms")), 0.01) << "tag " << row.at("tag");
    ++checked;
  }
  EXPECT_EQ(checked, matched);
  const auto& part = s["rtt_partition"];
  EXPECT_EQ(part["matched"], matched);
  EXPECT_LT(part["max_sum_error_ms"].get<double>(), 0.01);
  // Every column on the path has an n; where all timestamps are known it is the same n.
  for (const auto& c : part["columns"]) EXPECT_GT(s["stages_ms"][c.get<std::string>()]["n"].get<int>(), 0) << c;
  if (adapter == "local") {
    EXPECT_EQ(part["complete"], matched) << s["rtt_notes"].dump();
    for (const auto& c : part["columns"]) EXPECT_EQ(s["stages_ms"][c.get<std::string>()]["n"], matched) << c;
  } else {
    for (const char* c : {"CS_ms", "PS_ms", "AL_ms", "AS_ms", "SS_ms"})
      EXPECT_GE(s["stages_ms"][c]["n"].get<int>(), 0.9 * matched) << c << " " << s["rtt_notes"].dump();
  }
  // The swap call is named for what it holds on llvmpipe.
  if (part["software_renderer"].get<bool>()) {
    EXPECT_EQ(s["stages_ms"]["AS_ms"]["label"], "RD+AS");
  }
  std::cout << adapter << ": RTT mean " << s["rtt_ms"]["mean"] << " ms, unattributed share mean "
            << part["unattributed_share"]["mean"] << " max " << part["unattributed_share"]["max"] << ", complete "
            << part["complete"] << "/" << matched << "\n";
}

INSTANTIATE_TEST_SUITE_P(Adapters, StagePartition, ::testing::Values("local", "xvnc", "x11vnc"));

class FlatColours : public ::testing::TestWithParam<std::string> {};

// The latency scene draws flat colours: Tight sends solid, indexed and zlib rectangles, no JPEG.
TEST_P(FlatColours, CpAndSsAreKnownForNineInTenInputs) {
  const std::string adapter = GetParam();
  const std::string dir = fresh_dir("flat-" + adapter);
  const auto s = run_session(dir, {"--adapter", adapter, "--driver", "scripted:rate=4,hold=100ms,keys=space,seed=5",
                                   "builtin:latency", "-d", "8s"});
  const int matched = s["inputs"]["matched"].get<int>();
  ASSERT_GE(matched, 15) << s["inputs"].dump();
  ASSERT_TRUE(s["stages_ms"].contains("CP_ms")) << s["rtt_notes"].dump();
  const int cp = s["stages_ms"]["CP_ms"]["n"].get<int>(), ss = s["stages_ms"]["SS_ms"]["n"].get<int>();
  EXPECT_GE(cp, 0.9 * matched) << s["rtt_notes"].dump();
  EXPECT_GE(ss, 0.9 * matched) << s["rtt_notes"].dump();
  const auto proxy = read_json(dir + "/proxy.json");
  EXPECT_GT(proxy["counts"]["zlib_calls"].get<int>(), 0);
  std::cout << adapter << " flat colours: CP " << cp << "/" << matched << ", SS " << ss << "/" << matched
            << ", JPEG compressions " << proxy["counts"]["jpeg_compressions"] << ", zlib calls "
            << proxy["counts"]["zlib_calls"] << "\n";
}

INSTANTIATE_TEST_SUITE_P(Proxies, FlatColours, ::testing::Values("xvnc", "x11vnc"));

}  // namespace
