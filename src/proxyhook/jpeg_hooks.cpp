// Compression hooks (CP): libjpeg's jpeg_start_compress … jpeg_finish_compress as one record,
// the quality the proxy asked for (jpeg_set_quality outside jpeg_set_defaults, which calls it
// with 75 itself), and TurboJPEG's tjCompress2 for proxies that use that API.
#include "core/clock.h"
#include "proxyhook/proxy_state.h"
#include "proxyhook/real.h"

namespace pp = pictor::proxyhook;

namespace {

// Per thread: a proxy may compress on several threads (libvncserver's per-client threads).
struct Compression {
  j_compress_ptr cinfo = nullptr;
  std::int64_t start_ns = 0;
  const JOCTET* out_start = nullptr;  // the destination position after jpeg_start_compress
  std::size_t free_start = 0;
};
thread_local Compression t_compression;
thread_local int t_defaults_depth = 0;
thread_local int t_quality = -1;
thread_local int t_turbo_depth = 0;  // inside tjCompress2: its own libjpeg calls are not separate records

bool recording() { return pp::writer() && !pp::on_writer_thread() && t_turbo_depth == 0; }

// Compressed bytes between the end of jpeg_start_compress and the end of jpeg_finish_compress,
// when the destination kept one buffer throughout (-1 when it was emptied in between).
std::int64_t written_since_start(j_compress_ptr cinfo) {
  const Compression& c = t_compression;
  if (!cinfo->dest || !c.out_start) return -1;
  const JOCTET* end = cinfo->dest->next_output_byte;
  const std::size_t free_end = cinfo->dest->free_in_buffer;
  if (end < c.out_start || free_end > c.free_start) return -1;
  const auto n = static_cast<std::size_t>(end - c.out_start);
  return n == c.free_start - free_end ? static_cast<std::int64_t>(n) : -1;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void jpeg_set_defaults(j_compress_ptr cinfo) {
  auto real_fn = PICTOR_PROXY_REAL(jpeg_set_defaults);
  if (!real_fn) return;  // unreachable in practice: the proxy linked libjpeg to call us
  ++t_defaults_depth;
  real_fn(cinfo);
  --t_defaults_depth;
  t_quality = -1;  // back to libjpeg's default until the proxy sets one
}

__attribute__((visibility("default"))) void jpeg_set_quality(j_compress_ptr cinfo, int quality, boolean force_baseline) {
  auto real_fn = PICTOR_PROXY_REAL(jpeg_set_quality);
  if (!real_fn) return;
  if (t_defaults_depth == 0) t_quality = quality;
  real_fn(cinfo, quality, force_baseline);
}

__attribute__((visibility("default"))) void jpeg_start_compress(j_compress_ptr cinfo, boolean write_all_tables) {
  auto real_fn = PICTOR_PROXY_REAL(jpeg_start_compress);
  if (!real_fn) return;
  const std::int64_t start = pictor::monotonic_ns();
  real_fn(cinfo, write_all_tables);
  if (!recording()) return;
  t_compression = Compression{cinfo, start, cinfo->dest ? cinfo->dest->next_output_byte : nullptr,
                              cinfo->dest ? cinfo->dest->free_in_buffer : 0};
}

__attribute__((visibility("default"))) void jpeg_finish_compress(j_compress_ptr cinfo) {
  auto real_fn = PICTOR_PROXY_REAL(jpeg_finish_compress);
  if (!real_fn) return;
  real_fn(cinfo);
  const std::int64_t end = pictor::monotonic_ns();
  if (!recording() || t_compression.cinfo != cinfo) return;
  pp::ProxyRecord r;
  r.kind = pp::ProxyRecordKind::jpeg;
  r.start_ns = t_compression.start_ns;
  r.end_ns = end;
  r.bytes = written_since_start(cinfo);
  r.width = static_cast<std::int32_t>(cinfo->image_width);
  r.height = static_cast<std::int32_t>(cinfo->image_height);
  r.quality = t_quality;
  r.detail = static_cast<std::int64_t>(pp::EncoderCall::jpeg_compress);
  t_compression = Compression{};
  pp::writer()->push(r);
}

__attribute__((visibility("default"))) int tjCompress2(tjhandle handle, const unsigned char* src, int width,
                                                       int pitch, int height, int pixel_format,
                                                       unsigned char** jpeg_buf, unsigned long* jpeg_size,
                                                       int subsamp, int quality, int flags) {
  auto real_fn = PICTOR_PROXY_REAL(tjCompress2);
  if (!real_fn) return -1;
  const std::int64_t start = pictor::monotonic_ns();
  ++t_turbo_depth;
  const int rc = real_fn(handle, src, width, pitch, height, pixel_format, jpeg_buf, jpeg_size, subsamp, quality, flags);
  --t_turbo_depth;
  if (rc != 0 || !recording()) return rc;
  pp::ProxyRecord r;
  r.kind = pp::ProxyRecordKind::jpeg;
  r.start_ns = start;
  r.end_ns = pictor::monotonic_ns();
  r.bytes = jpeg_size ? static_cast<std::int64_t>(*jpeg_size) : -1;
  r.width = width;
  r.height = height;
  r.quality = quality;
  r.detail = static_cast<std::int64_t>(pp::EncoderCall::tj_compress2);
  pp::writer()->push(r);
  return rc;
}

}  // extern "C"
