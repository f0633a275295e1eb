// Helpers for the analysis tests: sample-file paths and throw-away files with given content.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/error.h"

namespace pictor::analysis::test {

inline std::string data_path(const std::string& name) {
  return std::string(PICTOR_TEST_DATA) + "/" + name;
}

// A directory removed with everything in it when the test ends.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("pictor-analysis-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `content` byte for byte and returns the file's path.
  std::string write(const std::string& name, const std::string& content) const {
    const std::filesystem::path p = path_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// The message of the UsageError that `f` throws; fails the test if it throws nothing or else.
inline std::string usage_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-UsageError: " << e.what();
    return {};
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

}  // namespace pictor::analysis::test
