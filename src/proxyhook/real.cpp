#include "proxyhook/real.h"

#include <dlfcn.h>

namespace pictor::proxyhook {

Real& real() noexcept {
  static Real r;
  return r;
}

void resolve_all() noexcept {
#define PICTOR_PROXY_RESOLVE(name, group) (void)PICTOR_PROXY_REAL(name);
  PICTOR_PROXY_HOOK_LIST(PICTOR_PROXY_RESOLVE)
#undef PICTOR_PROXY_RESOLVE
}

}  // namespace pictor::proxyhook
