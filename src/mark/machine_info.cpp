#include "mark/machine_info.h"

#include <GL/gl.h>

#include <cmath>
#include <fstream>

namespace pictor::mark {
namespace {

nlohmann::json gl_string(GLenum name) {
  const auto* s = glGetString(name);
  return s ? nlohmann::json(reinterpret_cast<const char*>(s)) : nlohmann::json(nullptr);
}

}  // namespace

double load_average() {
  std::ifstream in("/proc/loadavg");
  double one = 0;
  if (!(in >> one)) return std::nan("");
  return one;
}

nlohmann::json gl_info() {
  return {{"gl_vendor", gl_string(GL_VENDOR)}, {"gl_renderer", gl_string(GL_RENDERER)},
          {"gl_version", gl_string(GL_VERSION)}};
}

}  // namespace pictor::mark
