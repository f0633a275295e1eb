// The fuzz targets without libFuzzer: every file named (or found in a directory named) on the
// command line is passed once to LLVMFuzzerTestOneInput, in name order. Linked with a target's
// source it replays that target's corpus in `make test` with any compiler; a crash, a broken
// FUZZ_CHECK or an escaped exception fails the run.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// The input being replayed, named by the handler when it crashes the target.
const char* g_current = "";
constexpr int kCrashSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction g_previous[std::size(kCrashSignals)];

void on_crash(int sig) {
  constexpr char kPrefix[] = "replay: crashed on ";
  [[maybe_unused]] ssize_t n = ::write(2, kPrefix, sizeof kPrefix - 1);
  n = ::write(2, g_current, std::strlen(g_current));
  n = ::write(2, "\n", 1);
  // Then whatever handled the signal before (a sanitizer's report, or the default action).
  for (std::size_t i = 0; i < std::size(kCrashSignals); ++i)
    if (kCrashSignals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
  ::raise(sig);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::is_regular_file(p)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: no inputs (usage: %s FILE|DIR...)\n", argc > 0 ? argv[0] : "replay");
    return 2;
  }
  std::sort(files.begin(), files.end());
  // On a stack of its own, so that a stack overflow (deep recursion) is named too.
  static std::vector<char> alt_stack(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt_stack.data();
  ss.ss_size = alt_stack.size();
  ::sigaltstack(&ss, nullptr);
  struct sigaction action {};
  action.sa_handler = on_crash;
  action.sa_flags = SA_ONSTACK;
  for (std::size_t i = 0; i < std::size(kCrashSignals); ++i) ::sigaction(kCrashSignals[i], &action, &g_previous[i]);
  const auto start = std::chrono::steady_clock::now();
  std::size_t bytes = 0;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes += data.size();
    g_current = f.c_str();
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("replayed %zu inputs (%zu bytes) in %.2f s\n", files.size(), bytes, s);
  return 0;
}
