// Encoder hooks beside libjpeg (CP): zlib, which both proxies use for every Tight rectangle that is
// not JPEG (indexed and full-colour zlib data), for ZRLE and Zlib, and liblzo2's compressor
// (libvncserver's Ultra). Each outermost call is one record: zlib calls itself through its PLT
// (compress -> compress2 -> deflateInit_ -> deflate, deflateParams -> deflate), and a thread-local
// depth keeps those inner calls from being counted twice.
#include "core/clock.h"
#include "proxyhook/proxy_state.h"
#include "proxyhook/real.h"

namespace pp = pictor::proxyhook;

namespace {

thread_local int t_depth = 0;

// Times one encoder call: the real call runs between the two clock reads; `after` gives the
// record its bytes once the call has returned. Records only the outermost call of a thread.
template <typename Call, typename Bytes>
auto timed(pp::ProxyRecordKind kind, pp::EncoderCall which, Call&& call, Bytes&& bytes) {
  const bool outer = t_depth == 0;
  const std::int64_t start = outer ? pictor::monotonic_ns() : 0;
  ++t_depth;
  const auto rc = call();
  --t_depth;
  if (!outer || !pp::writer() || pp::on_writer_thread()) return rc;
  pp::ProxyRecord r;
  r.kind = kind;
  r.start_ns = start;
  r.end_ns = pictor::monotonic_ns();
  r.detail = static_cast<std::int64_t>(which);
  r.bytes = bytes(rc);
  pp::writer()->push(r);
  return rc;
}

// Bytes a zlib stream call produced (total_out moved by it); -1 when the stream is unknown.
struct StreamOut {
  z_streamp strm;
  uLong before;
  explicit StreamOut(z_streamp s) : strm(s), before(s ? s->total_out : 0) {}
  std::int64_t produced() const {
    return strm && strm->total_out >= before ? static_cast<std::int64_t>(strm->total_out - before) : -1;
  }
};

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int deflateInit_(z_streamp strm, int level, const char* version,
                                                        int stream_size) {
  auto real_fn = PICTOR_PROXY_REAL(deflateInit_);
  if (!real_fn) return Z_VERSION_ERROR;  // zlib's own answer to a library it cannot use
  return timed(pp::ProxyRecordKind::zlib, pp::EncoderCall::deflate_init,
               [&] { return real_fn(strm, level, version, stream_size); }, [](int) { return std::int64_t{-1}; });
}

__attribute__((visibility("default"))) int deflateInit2_(z_streamp strm, int level, int method, int window_bits,
                                                         int mem_level, int strategy, const char* version,
                                                         int stream_size) {
  auto real_fn = PICTOR_PROXY_REAL(deflateInit2_);
  if (!real_fn) return Z_VERSION_ERROR;
  return timed(pp::ProxyRecordKind::zlib, pp::EncoderCall::deflate_init2,
               [&] { return real_fn(strm, level, method, window_bits, mem_level, strategy, version, stream_size); },
               [](int) { return std::int64_t{-1}; });
}

__attribute__((visibility("default"))) int deflate(z_streamp strm, int flush) {
  auto real_fn = PICTOR_PROXY_REAL(deflate);
  if (!real_fn) return Z_STREAM_ERROR;
  const StreamOut out(strm);
  return timed(pp::ProxyRecordKind::zlib, pp::EncoderCall::deflate, [&] { return real_fn(strm, flush); },
               [&](int) { return out.produced(); });
}

__attribute__((visibility("default"))) int deflateParams(z_streamp strm, int level, int strategy) {
  auto real_fn = PICTOR_PROXY_REAL(deflateParams);
  if (!real_fn) return Z_STREAM_ERROR;
  const StreamOut out(strm);
  return timed(pp::ProxyRecordKind::zlib, pp::EncoderCall::deflate_params,
               [&] { return real_fn(strm, level, strategy); }, [&](int) { return out.produced(); });
}

__attribute__((visibility("default"))) int compress(Bytef* dest, uLongf* dest_len, const Bytef* source,
                                                    uLong source_len) {
  auto real_fn = PICTOR_PROXY_REAL(compress);
  if (!real_fn) return Z_STREAM_ERROR;
  return timed(pp::ProxyRecordKind::zlib, pp::EncoderCall::compress,
               [&] { return real_fn(dest, dest_len, source, source_len); },
               [&](int rc) { return rc == Z_OK && dest_len ? static_cast<std::int64_t>(*dest_len) : -1; });
}

__attribute__((visibility("default"))) int compress2(Bytef* dest, uLongf* dest_len, const Bytef* source,
                                                     uLong source_len, int level) {
  auto real_fn = PICTOR_PROXY_REAL(compress2);
  if (!real_fn) return Z_STREAM_ERROR;
  return timed(pp::ProxyRecordKind::zlib, pp::EncoderCall::compress2,
               [&] { return real_fn(dest, dest_len, source, source_len, level); },
               [&](int rc) { return rc == Z_OK && dest_len ? static_cast<std::int64_t>(*dest_len) : -1; });
}

__attribute__((visibility("default"))) int lzo1x_1_compress(const unsigned char* src, unsigned long src_len,
                                                            unsigned char* dst, unsigned long* dst_len,
                                                            void* wrkmem) {
  auto real_fn = PICTOR_PROXY_REAL(lzo1x_1_compress);
  if (!real_fn) return -1;  // LZO_E_ERROR
  return timed(pp::ProxyRecordKind::lzo, pp::EncoderCall::lzo1x_1_compress,
               [&] { return real_fn(src, src_len, dst, dst_len, wrkmem); },
               [&](int rc) { return rc == 0 && dst_len ? static_cast<std::int64_t>(*dst_len) : -1; });
}

}  // extern "C"
