#include "browser.h"

#include <cairo.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "helpers.h"

namespace pictor::test {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> chromium_argv(const std::string& chromium, const std::string& profile) {
  // --no-sandbox: the tests run as root in the build container; the page itself loads nothing.
  return {"timeout", "120", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
          "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"};
}

}  // namespace

std::optional<std::string> find_chromium() {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':'))
    for (const char* name : {"chromium", "chromium-browser"})
      if (const fs::path p = fs::path(dir) / name; fs::exists(p)) return p.string();
  return std::nullopt;
}

BrowserLoad load_page(const std::string& chromium, const std::string& file) {
  std::vector<std::string> argv = chromium_argv(chromium, fresh_dir("chromium-profile"));
  argv.push_back("--dump-dom");
  argv.push_back("file://" + fs::absolute(file).string());
  const CommandResult r = run_command(argv);
  BrowserLoad out;
  out.exit_code = r.exit_code;
  out.dom = r.out;
  out.err = r.err;
  std::stringstream lines(r.err);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("CONSOLE") != std::string::npos) out.console += line + "\n";
  return out;
}

int screenshot_colours(const std::string& chromium, const std::string& file, const std::string& png, int height) {
  std::vector<std::string> argv = chromium_argv(chromium, fresh_dir("chromium-profile"));
  argv.push_back("--hide-scrollbars");
  argv.push_back("--window-size=1280," + std::to_string(height));
  argv.push_back("--screenshot=" + png);
  argv.push_back("file://" + fs::absolute(file).string());
  fs::remove(png);
  run_command(argv);
  if (!fs::exists(png)) return 0;
  cairo_surface_t* s = cairo_image_surface_create_from_png(png.c_str());
  std::set<std::uint32_t> colours;
  if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
    cairo_surface_flush(s);
    const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    const int stride = cairo_image_surface_get_stride(s);
    const unsigned char* data = cairo_image_surface_get_data(s);
    for (int y = 0; y < h; y += 4)
      for (int x = 0; x < w; x += 4)
        colours.insert(*reinterpret_cast<const std::uint32_t*>(data + y * stride + x * 4) & 0xffffffu);
  }
  cairo_surface_destroy(s);
  return static_cast<int>(colours.size());
}

}  // namespace pictor::test
