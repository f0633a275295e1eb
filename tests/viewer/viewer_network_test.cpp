// What a stock-viewer session prints and samples (issue 19): the console shows summary.json's
// adapter notes, and the resource sampler's network figures are the --net relay's bytes between
// the viewer and its server, or, with no relay on that path, unavailable with that reason (never
// "no RFB client ran": the viewer moved the bytes). Real Xvnc and vncviewer; skipped without it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/exec.h"
#include "helpers.h"

using namespace pictor::test;

namespace {

#define SKIP_WITHOUT_VNCVIEWER()                              \
  if (!pictor::find_executable("vncviewer"))                 \
  GTEST_SKIP() << "vncviewer is not installed (Debian package tigervnc-viewer, scripts/setup.sh)"

TEST(ViewerNetwork, RelayBytesAreTheNetworkFiguresAndTheNotesArePrinted) {
  SKIP_WITHOUT_VNCVIEWER();
  const std::string dir = fresh_dir("viewer-net-relay");
  const auto r = run_command({PICTOR_BIN, "--quiet", "run", "-o", dir, "--adapter", "vncviewer", "--net", "delay=5ms",
                              "--driver", "scripted:rate=5,seed=3", "builtin:racing", "--size", "640x360", "-d", "4s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = read_json(dir + "/summary.json");
  const auto run = read_json(dir + "/run.json");
  // The console: each of summary.json's adapter notes on its own line, as written.
  ASSERT_TRUE(s.contains("adapter_notes") && !s["adapter_notes"].empty()) << s.dump();
  for (const auto& note : s["adapter_notes"])
    EXPECT_NE(r.out.find("Adapter note        " + note.get<std::string>() + "\n"), std::string::npos) << r.out;
  // The network: the relay's counters, named as such, and no more than the relay delivered in
  // the whole session (run.json's figures are read after the servers stopped).
  const auto& n = s["resources"]["network"];
  ASSERT_FALSE(n.contains("unavailable")) << n.dump();
  EXPECT_NE(n["source"].get<std::string>().find("the --net relay between vncviewer and its server"), std::string::npos)
      << n.dump();
  const auto& relay = run["client"]["adapter"]["net"];
  ASSERT_EQ(relay["relay"], true) << relay.dump();
  const auto down = n["bytes_down"].get<double>(), up = n["bytes_up"].get<double>();
  EXPECT_GT(down, 0.5 * relay["bytes_down"].get<double>()) << n.dump() << relay.dump();
  EXPECT_LE(down, relay["bytes_down"].get<double>()) << n.dump() << relay.dump();
  EXPECT_GT(up, 0.0) << n.dump();
  EXPECT_LE(up, relay["bytes_up"].get<double>()) << n.dump() << relay.dump();
}

TEST(ViewerNetwork, WithoutARelayTheReasonIsTheDirectConnection) {
  SKIP_WITHOUT_VNCVIEWER();
  const std::string dir = fresh_dir("viewer-net-direct");
  const auto r = run_command(
      {PICTOR_BIN, "--quiet", "run", "-o", dir, "--adapter", "vncviewer", "builtin:racing", "--size", "640x360", "-d", "3s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto n = read_json(dir + "/summary.json")["resources"]["network"];
  EXPECT_EQ(n.value("unavailable", ""),
            "unavailable: the vncviewer adapter's client connects to the server directly: no byte counter on that path; "
            "add --net (relay backend) to route it through Pictor's relay")
      << n.dump();
  EXPECT_FALSE(n.contains("bytes_down")) << n.dump();
}

}  // namespace
