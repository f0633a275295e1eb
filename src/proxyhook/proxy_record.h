// The fixed-size record the proxy hooks push to the proxy writer thread (one per connection, input,
// delivery, compression, socket write, close). Trivially copyable; bump the version on layout change.
#pragma once
#include <cstdint>

namespace pictor::proxyhook {

inline constexpr std::uint16_t kProxyRecordVersion = 1;

enum class ProxyRecordKind : std::uint8_t {
  connect = 1,     // accept() returned an RFB client: fd, detail = peer port, x = local port
  input = 2,       // a KeyEvent or a PointerEvent button change, parsed from a client read
  deliver = 3,     // XTestFake{Key,Button}Event: the proxy hands an input to the X server
  jpeg = 4,        // jpeg_start_compress … jpeg_finish_compress, or one tjCompress2 call
  write = 5,       // one socket write to a client: start/end of the call, bytes written
  close = 6,       // close() of a client fd
  parse_stop = 7,  // the RFB parser gave up on this fd: detail = ParseProblem, x = message type
};

enum class InputKind : std::uint8_t { none = 0, key = 1, button = 2 };

struct ProxyRecord {
  std::uint16_t version = kProxyRecordVersion;
  ProxyRecordKind kind = ProxyRecordKind::write;
  InputKind input = InputKind::none;
  std::int32_t fd = -1;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t bytes = -1;    // write: bytes written; jpeg: compressed size; -1 unknown
  std::int64_t detail = -1;   // input: keysym or button; deliver: keycode or button
  std::int32_t down = -1;     // input/deliver: 1 press, 0 release
  std::int32_t quality = -1;  // jpeg: quality set outside jpeg_set_defaults; -1 unknown
  std::int32_t x = -1, y = -1;           // input (button): pointer position
  std::int32_t width = -1, height = -1;  // jpeg: image size
};
static_assert(sizeof(ProxyRecord) == 64, "record layout is part of the proxy hook format");

}  // namespace pictor::proxyhook
