// The one list of functions the proxy preload exports. It generates the table of real functions
// (real.h), the found/missing report in proxy.json and the linker's export list (CMake reads the
// X(...) lines of this file to write proxy_exports.map), so the three cannot drift.
// X(name, group): group says which proxy activity the function times.
#pragma once

#define PICTOR_PROXY_HOOK_LIST(X) \
  X(accept, connection)           \
  X(accept4, connection)          \
  X(close, connection)            \
  X(read, input)                  \
  X(recv, input)                  \
  X(recvfrom, input)              \
  X(recvmsg, input)               \
  X(readv, input)                 \
  X(write, send)                  \
  X(send, send)                   \
  X(sendto, send)                 \
  X(sendmsg, send)                \
  X(writev, send)                 \
  X(setsockopt, send)             \
  X(jpeg_set_defaults, jpeg)      \
  X(jpeg_set_quality, jpeg)       \
  X(jpeg_start_compress, jpeg)    \
  X(jpeg_finish_compress, jpeg)   \
  X(tjCompress2, jpeg)            \
  X(deflateInit_, encode)         \
  X(deflateInit2_, encode)        \
  X(deflate, encode)              \
  X(deflateParams, encode)        \
  X(compress, encode)             \
  X(compress2, encode)            \
  X(lzo1x_1_compress, encode)     \
  X(XTestFakeKeyEvent, deliver)   \
  X(XTestFakeButtonEvent, deliver)
