// The container pieces that need no engine (runner/container.h): the option checks, the ulimits
// given to podman, a free display number, and finding a program's host pid in another pid
// namespace — on a real one made with unshare and entered with nsenter, as `podman exec` does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "core/exec.h"
#include "runner/container.h"

using namespace pictor::runner;
namespace fs = std::filesystem;

namespace {

std::string usage_error(const ContainerSpec& spec) {
  try {
    check_container_spec(spec);
  } catch (const pictor::UsageError& e) {
    return e.what();
  }
  return "";
}

// The first child of `pid`, waiting up to 5 s for it to appear.
pid_t first_child(pid_t pid) {
  for (int i = 0; i < 500; ++i) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
    pid_t child = -1;
    if (in >> child && child > 0) return child;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

}  // namespace

TEST(ContainerSpec, NoContainerTakesNoContainerOptions) {
  EXPECT_EQ(usage_error({}), "");
  EXPECT_EQ(usage_error({"", "", "2", ""}), "--rootfs, --cpus and --memory need --container podman");
  EXPECT_EQ(usage_error({"", "/x", "", ""}), "--rootfs, --cpus and --memory need --container podman");
  EXPECT_EQ(usage_error({"docker", "", "", ""}), "unknown --container 'docker' (known: podman)");
}

TEST(ContainerSpec, RootfsAndLimitsAreChecked) {
  if (!pictor::find_executable("podman") || !pictor::find_executable("runc", {"/usr/sbin"}) ||
      !pictor::find_executable("slirp4netns"))
    GTEST_SKIP() << "podman, runc or slirp4netns is not installed (scripts/setup.sh --tests installs them)";
  const fs::path root = fs::temp_directory_path() / ("pictor-rootfs-unit-" + std::to_string(::getpid()));
  fs::remove_all(root);
  EXPECT_EQ(usage_error({"podman", "", "", ""}), "--container podman needs --rootfs DIR (build one with scripts/container-rootfs.sh DIR)");
  EXPECT_NE(usage_error({"podman", root.string(), "", ""}).find("is not a root file system"), std::string::npos);
  fs::create_directories(root / "usr");
  fs::create_directories(root / "etc");
  EXPECT_EQ(usage_error({"podman", root.string(), "", ""}), "");
  EXPECT_EQ(usage_error({"podman", root.string(), "1.5", "512m"}), "");
  EXPECT_EQ(usage_error({"podman", root.string(), "", "2g"}), "");
  for (const char* cpus : {"0", "-1", "abc", "1.5x"})
    EXPECT_NE(usage_error({"podman", root.string(), cpus, ""}).find("--cpus must be a positive number"), std::string::npos) << cpus;
  for (const char* memory : {"12x", "m", "1.5g", "-5m"})
    EXPECT_NE(usage_error({"podman", root.string(), "", memory}).find("--memory must be a size"), std::string::npos) << memory;
  fs::remove_all(root);
}

TEST(ContainerSpec, UlimitsAreTheHardLimitsWithProcessesCapped) {
  const auto u = container_ulimits();
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[0].rfind("nofile=", 0), 0u) << u[0];
  EXPECT_EQ(u[1].rfind("nproc=", 0), 0u) << u[1];
  const auto soft_hard = [](const std::string& s) {
    const auto eq = s.find('='), colon = s.find(':');
    return std::make_pair(std::stoll(s.substr(eq + 1, colon - eq - 1)), std::stoll(s.substr(colon + 1)));
  };
  const auto [files_soft, files_hard] = soft_hard(u[0]);
  EXPECT_EQ(files_soft, files_hard);
  const auto [procs_soft, procs_hard] = soft_hard(u[1]);
  EXPECT_EQ(procs_soft, procs_hard);
  EXPECT_LE(procs_hard, 32768);
  EXPECT_GT(procs_hard, 0);
}

TEST(ContainerSpec, FreeDisplayNumberHasNoSocketNorLock) {
  const int n = free_display_number();
  EXPECT_GE(n, 100);
  EXPECT_FALSE(fs::exists("/tmp/.X11-unix/X" + std::to_string(n)));
  EXPECT_FALSE(fs::exists("/tmp/.X" + std::to_string(n) + "-lock"));
}

TEST(ContainerProcess, FoundInAnotherPidNamespaceByItsMarkerNotItsChildren) {
  if (!pictor::find_executable("unshare") || !pictor::find_executable("nsenter")) GTEST_SKIP() << "no unshare or nsenter";
  // A pid namespace whose init only sleeps, as a container's does.
  SpawnOptions ns;
  ns.argv = {"unshare", "--pid", "--fork", "sleep", "30"};
  Process unshare = Process::spawn(ns);
  const pid_t init = first_child(unshare.pid());
  if (init <= 0 || !unshare.running()) GTEST_SKIP() << "unshare --pid is not permitted here";
  // A program entered into it from outside (its parent, nsenter, stays outside) with a child.
  SpawnOptions enter;
  enter.argv = {"nsenter", "--pid=/proc/" + std::to_string(init) + "/ns/pid", "--", "sh", "-c", "sleep 30 & wait"};
  enter.env["PICTOR_CONTAINER_TAG"] = "unit-1";
  Process nsenter = Process::spawn(enter);
  const pid_t program = first_child(nsenter.pid());
  ASSERT_GT(program, 0);
  ASSERT_GT(first_child(program), 0) << "its child, which carries the marker too";
  pid_t found = -1;
  for (int i = 0; i < 200 && found <= 0; ++i) {
    found = find_container_process(init, "PICTOR_CONTAINER_TAG=unit-1");
    if (found <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(found, program);
  EXPECT_EQ(find_container_process(init, "PICTOR_CONTAINER_TAG=unit-2"), -1);
  // The namespace's processes are not the host's: the marker alone does not find nsenter itself.
  EXPECT_EQ(find_container_process(::getpid(), "PICTOR_CONTAINER_TAG=unit-1"), -1);
  // adopt_inner: signals go to the program, the launcher ends with it.
  nsenter.adopt_inner(program);
  EXPECT_EQ(nsenter.pid(), program);
  nsenter.stop(2.0);
  EXPECT_FALSE(nsenter.running());
  EXPECT_NE(::kill(program, 0), 0) << "the program inside ended";
  unshare.stop(1.0);
}
