// What a result is measured on: CPU model, cores, memory, kernel, load — recorded in run.json
// and mark.json so every figure carries its system context.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pictor::runner {

nlohmann::json machine_info();
// Pictor's own command line (/proc/self/cmdline), for run.json and suite.json.
std::vector<std::string> own_command_line();

}  // namespace pictor::runner
