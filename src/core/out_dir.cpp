#include "core/out_dir.h"

#include <unistd.h>

#include <array>
#include <string_view>
#include <system_error>

#include "core/error.h"

namespace pictor {
namespace fs = std::filesystem;

namespace {

// Files only Pictor's commands write, one of which every result directory holds.
constexpr std::array<std::string_view, 13> kResultFiles{
    "run.json",    "frames.csv",     "summary.json", "hook.json",      "gpu.csv",   "client_inputs.csv",
    "inputs.csv",  "suite.json",     "mark.json",    "recording.json", "ic_eval.json", "proxy_events.csv",
    "campaign.json"};

// A suite's sessions are one level down, an IC evaluation's rounds two ("r1/00-reference").
constexpr int kDepth = 2;

void collect(const fs::path& dir, const fs::path& relative, int depth, std::vector<std::string>& found) {
  std::error_code ec;
  for (const std::string_view name : kResultFiles)
    if (fs::is_regular_file(dir / name, ec)) found.push_back((relative / name).string());
  if (depth == 0) return;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec))
      collect(it->path(), relative / it->path().filename(), depth - 1, found);
    if (found.size() >= 3) return;  // enough to name in a message
  }
}

void create_writable(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("cannot create output directory '" + dir.string() + "': " + ec.message());
  if (::access(dir.c_str(), W_OK) != 0) throw UsageError("output directory '" + dir.string() + "' is not writable");
}

}  // namespace

std::vector<std::string> earlier_results_in(const fs::path& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) collect(dir, fs::path(), kDepth, found);
  return found;
}

fs::path claim_out_dir(const std::string& out, const std::string& default_path, bool force) {
  if (!out.empty()) {
    const fs::path dir(out);
    const std::vector<std::string> earlier = earlier_results_in(dir);
    if (!earlier.empty()) {
      if (!force) {
        std::string names;
        for (const auto& n : earlier) names += (names.empty() ? "" : ", ") + n;
        throw UsageError("'" + dir.string() + "' already holds the results of an earlier run (" + names +
                         "); choose another --out, or add --force to delete its contents and write there");
      }
      std::error_code ec;
      for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code rm;
        fs::remove_all(it->path(), rm);
        if (rm) throw UsageError("--force: cannot delete '" + it->path().string() + "': " + rm.message());
      }
      if (ec) throw UsageError("--force: cannot list '" + dir.string() + "': " + ec.message());
    }
    create_writable(dir);
    return dir;
  }
  const fs::path base(default_path);
  std::error_code ec;
  if (base.has_parent_path()) create_writable(base.parent_path());
  for (int n = 1; n < 10000; ++n) {
    const fs::path dir = n == 1 ? base : fs::path(base.string() + "-" + std::to_string(n));
    // create_directory is false when the directory already exists: that name is someone else's.
    if (fs::create_directory(dir, ec)) {
      create_writable(dir);
      return dir;
    }
    if (ec) throw UsageError("cannot create output directory '" + dir.string() + "': " + ec.message());
  }
  throw UsageError("cannot find a free directory name for '" + base.string() + "' (tried -2 … -9999)");
}

}  // namespace pictor
