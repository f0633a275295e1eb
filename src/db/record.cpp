#include "db/record.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "db/results_store.h"
#include "db/run_record.h"

namespace pictor::db {

namespace {

namespace fs = std::filesystem;

void all_status_files(const RecordTree& t, std::vector<std::string>& out) {
  out.push_back((fs::path(t.run.dir) / t.status_file).string());
  for (const RecordTree& c : t.children) all_status_files(c, out);
}

// Adds `t` under `parent`, then its children; a run that fails takes its children with it.
void add_tree(ResultsStore& store, RecordTree& t, std::optional<std::int64_t> parent, RecordOutcome& out, bool top) {
  t.run.parent_id = parent;
  std::int64_t id = 0;
  try {
    id = store.add(t.run);
  } catch (const std::exception& e) {
    if (out.error.empty()) out.error = e.what();
    all_status_files(t, out.not_recorded);
    return;
  }
  ++out.recorded;
  if (top) out.id = id;
  for (RecordTree& c : t.children) add_tree(store, c, id, out, false);
}

}  // namespace

RecordOutcome record_results(const std::string& location, const std::string& dir, const std::vector<std::string>& argv) {
  RecordOutcome out;
  out.location = location;
  RecordTree tree;
  try {
    tree = read_result_dir(dir);
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;  // no status file to note it in
  }
  if ((tree.run.command_line.empty() || tree.run.command_line == "[]") && !argv.empty())
    tree.run.command_line = nlohmann::json(argv).dump();
  std::unique_ptr<ResultsStore> store;
  try {
    if (out.location.empty()) out.location = default_location();
    store = open_store(out.location);
    out.location = store->location();
  } catch (const std::exception& e) {
    out.error = e.what();
    all_status_files(tree, out.not_recorded);
    return out;
  }
  add_tree(*store, tree, std::nullopt, out, true);
  return out;
}

}  // namespace pictor::db
