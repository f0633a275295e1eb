// Small JSON helpers shared by every area that writes summaries: a measuring instrument never
// writes a number it does not have, so an unknown figure becomes JSON null, never 0.
#pragma once

#include <cmath>

#include <nlohmann/json.hpp>

namespace pictor {

// A finite value as a number; NaN and infinities (the "unknown" of the statistics) as null.
inline nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

// A JSON value that is a number kept as it is; anything else (missing, null, a string) as null.
inline nlohmann::json number_or_null(const nlohmann::json& j) { return j.is_number() ? j : nlohmann::json(); }

}  // namespace pictor
