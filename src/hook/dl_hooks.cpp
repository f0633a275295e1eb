// dlsym: GLFW, SDL and glmark2 dlopen libGL/libEGL and look swap up by name. For the names in
// our list we remember what the library really has and hand back our hook instead.
#include "hook/hooks.h"
#include "hook/real.h"

using namespace pictor::hook;

// The sanitizer runtime calls this with RTLD_NEXT during its own start-up: nothing on that path
// is instrumented (PICTOR_UNINSTRUMENTED).
extern "C" __attribute__((visibility("default"))) PICTOR_UNINSTRUMENTED void* dlsym(void* handle, const char* name) {
  void* found = real_dlsym(handle, name);
  if (!found || handle == RTLD_NEXT) return found;
  if (void* h = hook_for(name)) {
    remember_real(name, found);
    // The real dlsym must stay reachable: ours is only a filter in front of it.
    if (h != reinterpret_cast<void*>(&::dlsym)) return h;
  }
  return found;
}
