#include "analysis/session_schema.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "core/csv_files.h"
#include "core/error.h"

namespace pictor::analysis {

namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return nullptr;
  std::ifstream in(path);
  // A damaged JSON beside the file declares nothing; its own reader reports it.
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

std::optional<int> schema_in(const nlohmann::json& files, const std::string& name) {
  if (!files.is_object()) return std::nullopt;
  const auto entry = files.find(name);
  if (entry == files.end() || !entry->is_object()) return std::nullopt;
  const auto schema = entry->find("schema");
  if (schema == entry->end() || !schema->is_number_integer()) return std::nullopt;
  return schema->get<int>();
}

}  // namespace

nlohmann::json session_files_json(const std::string& session_dir) {
  nlohmann::json files = nlohmann::json::object();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(session_dir, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    const std::string name = entry.path().filename().string();
    if (const csv_files::CsvFile* f = csv_files::find_session_file(name)) files[name] = {{"schema", f->schema}};
  }
  return files;
}

std::optional<int> declared_schema(const std::string& csv_path) {
  const fs::path path(csv_path);
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  const std::string name = path.filename().string();
  const nlohmann::json run = read_json(dir / "run.json");
  if (run.is_object() && run.contains("files"))
    if (auto s = schema_in(run["files"], name)) return s;
  const nlohmann::json hook = read_json(dir / "hook.json");
  if (hook.is_object() && hook.contains("files"))
    if (auto s = schema_in(hook["files"], name)) return s;
  const nlohmann::json proxy = read_json(dir / "proxy.json");
  const auto events = proxy.is_object() ? proxy.find("events_file") : proxy.end();
  if (proxy.is_object() && events != proxy.end() && events->is_string() && events->get<std::string>() == name) {
    const auto s = proxy.find("events_schema");
    if (s != proxy.end() && s->is_number_integer()) return s->get<int>();
  }
  return std::nullopt;
}

void check_declared_schema(const std::string& csv_path, std::string_view what, int newest) {
  const std::optional<int> schema = declared_schema(csv_path);
  if (schema && *schema > newest)
    throw UsageError(fmt::format("{}: {} schema {} is newer than this Pictor reads ({})", csv_path, what, *schema,
                                 newest));
}

}  // namespace pictor::analysis
