// A real headless Chromium for the report tests: the DOM after the page's scripts ran, its
// console messages, and a screenshot. Chromium is a test-only package (scripts/setup.sh --tests).
#pragma once
#include <optional>
#include <string>

namespace pictor::test {

// The chromium binary on PATH; nullopt (the tests then skip, saying so) when it is absent.
std::optional<std::string> find_chromium();

struct BrowserLoad {
  int exit_code = -1;
  std::string dom;      // --dump-dom
  std::string console;  // the console messages Chromium logged (lines with "CONSOLE"), "" when none
  std::string err;      // Chromium's whole stderr, for failure messages
};
// Opens FILE (a path) in headless Chromium, with its own profile directory under the test tree.
BrowserLoad load_page(const std::string& chromium, const std::string& file);

// Saves a screenshot of FILE at 1280 x height to PNG; returns how many distinct colours it has
// (0 when no PNG was written), sampled every 4th pixel.
int screenshot_colours(const std::string& chromium, const std::string& file, const std::string& png, int height = 1600);

}  // namespace pictor::test
