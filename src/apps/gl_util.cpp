#include "apps/gl_util.h"

#include "core/error.h"

namespace pictor::apps {

static GLuint compile(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw RunError(std::string("shader compile failed: ") + log);
  }
  return shader;
}

GLuint build_program(const char* vertex_source, const char* fragment_source) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_source);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_source);
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    glDeleteProgram(program);
    throw RunError(std::string("shader link failed: ") + log);
  }
  return program;
}

}  // namespace pictor::apps
