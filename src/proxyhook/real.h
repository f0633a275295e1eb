// The proxy's real functions behind every hook, as typed pointers in one struct, found with
// dlsym(RTLD_NEXT) and never assumed non-null (a proxy without libjpeg or libXtst is normal).
#pragma once
#include <X11/Xlib.h>
#include <dlfcn.h>
#include <X11/extensions/XTest.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>
#include <turbojpeg.h>
#include <zlib.h>

#include "proxyhook/hook_list.h"

// liblzo2's LZO1X-1 compressor (libvncserver's Ultra encoding), declared here rather than through
// <lzo/lzo1x.h> so that building the preload needs no LZO headers: lzo_uint is unsigned long and
// lzo_bytep unsigned char* on every Linux ABI.
extern "C" int lzo1x_1_compress(const unsigned char* src, unsigned long src_len, unsigned char* dst,
                                unsigned long* dst_len, void* wrkmem);

namespace pictor::proxyhook {

// decltype(&::read) carries glibc's attributes, which templates ignore: harmless here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
struct Real {
#define PICTOR_PROXY_REAL_MEMBER(name, group) std::atomic<decltype(&::name)> name{nullptr};
  PICTOR_PROXY_HOOK_LIST(PICTOR_PROXY_REAL_MEMBER)
#undef PICTOR_PROXY_REAL_MEMBER
};
#pragma GCC diagnostic pop

Real& real() noexcept;

// Looks every hooked name up once (library load); later calls retry the ones still missing.
void resolve_all() noexcept;

template <typename Fn>
Fn resolve(std::atomic<Fn>& slot, const char* name) noexcept {
  Fn fn = slot.load(std::memory_order_acquire);
  if (fn) return fn;
  fn = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
  if (fn) slot.store(fn, std::memory_order_release);
  return fn;
}

#define PICTOR_PROXY_REAL(name) ::pictor::proxyhook::resolve(::pictor::proxyhook::real().name, #name)

}  // namespace pictor::proxyhook
