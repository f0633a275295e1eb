// Typed errors thrown by Pictor's libraries and turned into one stderr line + exit code by the CLI.
// UsageError -> exit 2 (bad option, bad input file); RunError -> exit 1 (the measured thing failed).
#pragma once
#include <stdexcept>
#include <string>

namespace pictor {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace pictor
