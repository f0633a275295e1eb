// The fixed-size record the proxy hooks push to the proxy writer thread (one per connection, input,
// delivery, encoder call, socket write, cork, close). Trivially copyable; bump the version on
// layout change.
#pragma once
#include <cstdint>

namespace pictor::proxyhook {

inline constexpr std::uint16_t kProxyRecordVersion = 2;

enum class ProxyRecordKind : std::uint8_t {
  connect = 1,     // accept() returned an RFB client: fd, detail = peer port, x = local port
  input = 2,       // a KeyEvent or a PointerEvent button change, parsed from a client read
  deliver = 3,     // XTestFake{Key,Button}Event: the proxy hands an input to the X server
  jpeg = 4,        // jpeg_start_compress … jpeg_finish_compress, or one tjCompress2 call
  write = 5,       // one socket write to a client: start/end of the call, bytes written
  close = 6,       // close() of a client fd
  parse_stop = 7,  // the RFB parser gave up on this fd: detail = ParseProblem, x = message type
  zlib = 8,        // one zlib call that compresses or sets up compression (detail = EncoderCall)
  lzo = 9,         // one lzo1x_1_compress call
  cork = 10,       // setsockopt(TCP_CORK) on a client fd: detail = 1 corked, 0 uncorked
};

// Which encoder function an encoder record (jpeg, zlib, lzo) timed; kept in `detail`.
enum class EncoderCall : std::int64_t {
  jpeg_compress = 1,  // jpeg_start_compress ... jpeg_finish_compress
  tj_compress2 = 2,
  deflate = 3,
  deflate_init = 4,   // deflateInit_
  deflate_init2 = 5,  // deflateInit2_
  deflate_params = 6,
  compress = 7,
  compress2 = 8,
  lzo1x_1_compress = 9,
};
// The C name of the function, for proxy_events.csv's `call` column; "" for an unknown value.
const char* encoder_call_name(std::int64_t call) noexcept;

enum class InputKind : std::uint8_t { none = 0, key = 1, button = 2 };

struct ProxyRecord {
  std::uint16_t version = kProxyRecordVersion;
  ProxyRecordKind kind = ProxyRecordKind::write;
  InputKind input = InputKind::none;
  std::int32_t fd = -1;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t bytes = -1;    // write: bytes written; encoders: compressed bytes produced; -1 unknown
  std::int64_t detail = -1;   // input: keysym or button; deliver: keycode or button; encoders:
                              // EncoderCall; cork: 1 on, 0 off
  std::int32_t down = -1;     // input/deliver: 1 press, 0 release
  std::int32_t quality = -1;  // jpeg: quality set outside jpeg_set_defaults; -1 unknown
  std::int32_t x = -1, y = -1;           // input (button): pointer position
  std::int32_t width = -1, height = -1;  // jpeg: image size
};
static_assert(sizeof(ProxyRecord) == 64, "record layout is part of the proxy hook format");

}  // namespace pictor::proxyhook
