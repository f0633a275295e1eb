// Small GL helpers shared by the built-in scenes: shader programs with readable errors.
#pragma once
#include <GL/gl.h>
#include <GL/glext.h>

#include <string>

namespace pictor::apps {

// Compiles and links a vertex + fragment shader; throws pictor::RunError with the info log.
GLuint build_program(const char* vertex_source, const char* fragment_source);

}  // namespace pictor::apps
