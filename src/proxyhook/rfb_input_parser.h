// Follows the client→server half of one RFB connection, byte by byte as the proxy reads it, and
// reports each key press/release and pointer button change. No allocation: safe inside a read hook.
#pragma once
#include <cstddef>
#include <cstdint>

#include "proxyhook/proxy_record.h"

namespace pictor::proxyhook {

// Why a parser stopped following its connection (it then reports nothing more for that fd).
enum class ParseProblem : std::uint8_t {
  none = 0,
  bad_version = 1,         // the first 12 bytes are not "RFB xxx.yyy\n"
  unsupported_security = 2,  // a security type other than None (1) or VNC auth (2)
  unknown_message = 3,     // a client message type this parser does not know the length of
};
const char* parse_problem_text(ParseProblem problem) noexcept;

// One input the stream carried. x, y: the pointer position (buttons only).
struct RfbInput {
  InputKind kind = InputKind::none;
  std::uint32_t detail = 0;  // keysym, or button number 1..8
  bool down = false;
  std::uint16_t x = 0, y = 0;
};

class RfbInputParser {
 public:
  // Called for each input completed by the bytes given to feed().
  using Sink = void (*)(void* context, const RfbInput& input);

  void reset() noexcept { *this = RfbInputParser{}; }

  // Consumes the next `n` bytes the client sent. Returns false once the parser has stopped.
  bool feed(const std::uint8_t* data, std::size_t n, Sink sink, void* context) noexcept;

  ParseProblem problem() const noexcept { return problem_; }
  std::uint8_t problem_message() const noexcept { return problem_message_; }
  // Pointer events that moved the pointer without changing a button (not reported one by one).
  std::uint64_t motion_events() const noexcept { return motion_; }
  std::uint64_t messages() const noexcept { return messages_; }

 private:
  enum class Phase : std::uint8_t { version, security, vnc_auth, client_init, messages, stopped };

  // Bytes of the current unit collected so far and how many the unit needs before it can be read.
  void expect(std::size_t n) noexcept {
    have_ = 0;
    need_ = n;
  }
  void stop(ParseProblem problem, std::uint8_t message) noexcept;
  // The unit in buf_ is complete: act on it and set up the next one.
  void complete(Sink sink, void* context) noexcept;

  static constexpr std::size_t kBufSize = 24;  // the longest fixed part we need to read (SetPixelFormat: 20)
  std::uint8_t buf_[kBufSize] = {};
  std::size_t have_ = 0;
  std::size_t need_ = 12;      // ProtocolVersion
  std::uint64_t skip_ = 0;     // payload bytes to discard before the next message
  Phase phase_ = Phase::version;
  bool rfb33_ = false;
  std::uint8_t buttons_ = 0;   // the last PointerEvent's button mask
  ParseProblem problem_ = ParseProblem::none;
  std::uint8_t problem_message_ = 0;
  std::uint64_t motion_ = 0;
  std::uint64_t messages_ = 0;
};

}  // namespace pictor::proxyhook
