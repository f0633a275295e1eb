// What a result is measured on: CPU model, cores, memory, kernel, load — recorded in run.json
// and mark.json so every figure carries its system context.
#pragma once
#include <nlohmann/json.hpp>

namespace pictor::runner {

nlohmann::json machine_info();

}  // namespace pictor::runner
