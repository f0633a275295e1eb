// Small JSON helpers shared by every area that writes summaries: a measuring instrument never
// writes a number it does not have, so an unknown figure becomes JSON null, never 0.
#pragma once

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/files.h"

namespace pictor {

// A finite value as a number; NaN and infinities (the "unknown" of the statistics) as null.
inline nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

// A JSON value that is a number kept as it is; anything else (missing, null, a string) as null.
inline nlohmann::json number_or_null(const nlohmann::json& j) { return j.is_number() ? j : nlohmann::json(); }

// A result file as Pictor writes them all: indented by 2, one final newline, replaced atomically
// (files::write_file; throws files::WriteError).
inline void write_json_file(const std::filesystem::path& path, const nlohmann::json& j,
                            const files::WriteOptions& options = {}) {
  files::write_file(path, j.dump(2) + "\n", options);
}

}  // namespace pictor
