#include "analysis/session_schema.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/csv_files.h"
#include "core/error.h"

namespace pictor::analysis {

namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_json_text(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A damaged JSON declares nothing; its own reader reports it.
nlohmann::json parse_or_null(const std::string* text) {
  return text ? nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false) : nullptr;
}

std::optional<int> schema_in(const nlohmann::json& files, const std::string& name) {
  if (!files.is_object()) return std::nullopt;
  const auto entry = files.find(name);
  if (entry == files.end() || !entry->is_object()) return std::nullopt;
  const auto schema = entry->find("schema");
  if (schema == entry->end() || !schema->is_number_integer()) return std::nullopt;
  return schema->get<int>();
}

// What the JSON files in the directory of `csv_path` declare.
DeclaredSchemas schemas_beside(const fs::path& csv_path) {
  const fs::path dir = csv_path.parent_path().empty() ? fs::path(".") : csv_path.parent_path();
  const auto run = read_json_text(dir / "run.json"), hook = read_json_text(dir / "hook.json"),
             proxy = read_json_text(dir / "proxy.json");
  return DeclaredSchemas(run ? &*run : nullptr, hook ? &*hook : nullptr, proxy ? &*proxy : nullptr);
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

DeclaredSchemas::DeclaredSchemas(const std::string* run_json, const std::string* hook_json,
                                 const std::string* proxy_json)
    : run_(parse_or_null(run_json)), hook_(parse_or_null(hook_json)), proxy_(parse_or_null(proxy_json)) {}

std::optional<int> DeclaredSchemas::of(const std::string& name) const {
  if (run_.is_object() && run_.contains("files"))
    if (auto s = schema_in(run_["files"], name)) return s;
  if (hook_.is_object() && hook_.contains("files"))
    if (auto s = schema_in(hook_["files"], name)) return s;
  const auto events = proxy_.is_object() ? proxy_.find("events_file") : proxy_.end();
  if (proxy_.is_object() && events != proxy_.end() && events->is_string() && events->get<std::string>() == name) {
    const auto s = proxy_.find("events_schema");
    if (s != proxy_.end() && s->is_number_integer()) return s->get<int>();
  }
  return std::nullopt;
}

void DeclaredSchemas::check(const std::string& csv_path, std::string_view what, int newest) const {
  const std::optional<int> schema = of(fs::path(csv_path).filename().string());
  if (schema && *schema > newest)
    throw UsageError(fmt::format("{}: {} schema {} is newer than this Pictor reads ({})", csv_path, what, *schema,
                                 newest));
}

std::optional<int> declared_schema(const std::string& csv_path) {
  return schemas_beside(csv_path).of(fs::path(csv_path).filename().string());
}

void check_declared_schema(const std::string& csv_path, std::string_view what, int newest) {
  schemas_beside(csv_path).check(csv_path, what, newest);
}

}  // namespace pictor::analysis
