// Fuzz target: a trained model's manifest.json (ic/manifest.h) on any bytes, read as the model
// loader reads it (core/json_read.h's parse_json: a JSON error, a number beyond a double or nesting
// deeper than 64 levels is its one-line error), then
// parse_manifest. Properties: errors are one line that names the file; the networks an accepted
// manifest describes have positive sizes; and it writes back (manifest_json) to a manifest that
// parses again to the same JSON, as `pictor train` writes and the ic driver reads it.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "core/error.h"
#include "core/json_read.h"
#include "fuzz_check.h"
#include "ic/manifest.h"

namespace {

constexpr char kPath[] = "model/manifest.json";

// Parses a manifest, checking the error's form; nullopt when it was refused.
std::optional<pictor::ic::ModelManifest> parse(const nlohmann::json& j) {
  try {
    return pictor::ic::parse_manifest(j, kPath);
  } catch (const pictor::UsageError& e) {
    const std::string message = e.what();
    FUZZ_CHECK(message.rfind(kPath, 0) == 0);
    FUZZ_CHECK(message.find('\n') == std::string::npos);
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pictor::ic;
  nlohmann::json j;
  try {
    j = pictor::parse_json(pictor::fuzz::as_text(data, size), kPath);  // as load_model_dir reads it
  } catch (const pictor::UsageError& e) {
    const std::string message = e.what();
    FUZZ_CHECK(message.rfind(kPath, 0) == 0);
    FUZZ_CHECK(message.find('\n') == std::string::npos);
    return 0;
  }
  const std::optional<ModelManifest> m = parse(j);
  if (!m) return 0;
  FUZZ_CHECK(m->features.size() > 0 && m->policy_outputs() > 0);
  FUZZ_CHECK(m->shape.grid_width() > 0 && m->shape.grid_height() > 0);
  const nlohmann::json written = manifest_json(*m);
  const std::optional<ModelManifest> again = parse(nlohmann::json::parse(written.dump()));
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(manifest_json(*again) == written);
  return 0;
}
