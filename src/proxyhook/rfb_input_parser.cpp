// RFB 3.3/3.7/3.8 client-to-server messages (RFC 6143 §7.5 plus the common extensions TigerVNC
// and libvncclient send), parsed only far enough to know each message's length and its inputs.
#include "proxyhook/rfb_input_parser.h"

#include <algorithm>
#include <cstring>

namespace pictor::proxyhook {

namespace {

std::uint16_t u16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}

// The whole fixed part of the message whose first `have` bytes are in `m`, or more bytes to read
// before that is known (a return value > have), or 0: a message type we cannot size.
std::size_t fixed_length(const std::uint8_t* m, std::size_t have) {
  switch (m[0]) {
    case 0: return 20;    // SetPixelFormat
    case 2: return 4;     // SetEncodings (+ 4 per encoding)
    case 3: return 10;    // FramebufferUpdateRequest
    case 4: return 8;     // KeyEvent
    case 5: return 6;     // PointerEvent
    case 6: return 8;     // ClientCutText (+ text)
    case 150: return 10;  // EnableContinuousUpdates
    case 248: return 9;   // Fence (+ payload)
    case 250: return 4;   // xvp
    case 251: return 8;   // SetDesktopSize (+ 16 per screen)
    case 255:             // QEMU: the sub-type decides
      if (have < 2) return 2;
      if (m[1] == 0) return 12;  // extended key event
      if (m[1] == 1) {           // audio: the operation decides
        if (have < 4) return 4;
        const std::uint16_t op = u16(m + 2);
        return op == 2 ? 10 : op <= 1 ? 4 : 0;
      }
      return 0;
    default: return 0;
  }
}

// Bytes that follow the fixed part.
std::uint64_t payload_length(const std::uint8_t* m) {
  switch (m[0]) {
    case 2: return 4u * u16(m + 2);
    case 6: {
      // Extended clipboard (a negative length) carries |length| bytes.
      const auto len = static_cast<std::int32_t>(u32(m + 4));
      return len < 0 ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(len))
                     : static_cast<std::uint64_t>(len);
    }
    case 248: return m[8];
    case 251: return 16u * m[6];
    default: return 0;
  }
}

}  // namespace

const char* parse_problem_text(ParseProblem problem) noexcept {
  switch (problem) {
    case ParseProblem::none: return "none";
    case ParseProblem::bad_version: return "not an RFB ProtocolVersion";
    case ParseProblem::unsupported_security: return "security type other than None or VNC auth";
    case ParseProblem::unknown_message: return "client message type of unknown length";
  }
  return "unknown";
}

void RfbInputParser::stop(ParseProblem problem, std::uint8_t message) noexcept {
  phase_ = Phase::stopped;
  problem_ = problem;
  problem_message_ = message;
}

bool RfbInputParser::feed(const std::uint8_t* data, std::size_t n, Sink sink, void* context) noexcept {
  while (n > 0 && phase_ != Phase::stopped) {
    if (skip_ > 0) {
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(skip_, n));
      skip_ -= take;
      data += take;
      n -= take;
      continue;
    }
    const std::size_t take = std::min(need_ - have_, n);
    std::memcpy(buf_ + have_, data, take);
    have_ += take;
    data += take;
    n -= take;
    if (have_ == need_) complete(sink, context);
  }
  return phase_ != Phase::stopped;
}

void RfbInputParser::complete(Sink sink, void* context) noexcept {
  switch (phase_) {
    case Phase::version: {
      if (std::memcmp(buf_, "RFB ", 4) != 0 || buf_[7] != '.' || buf_[11] != '\n') {
        stop(ParseProblem::bad_version, 0);
        return;
      }
      // 3.3 (and Apple's 3.5/3.889 variants below 3.7) have no client security choice.
      const int minor = (buf_[8] - '0') * 100 + (buf_[9] - '0') * 10 + (buf_[10] - '0');
      rfb33_ = minor < 7;
      phase_ = rfb33_ ? Phase::client_init : Phase::security;
      expect(1);
      return;
    }
    case Phase::security:
      if (buf_[0] == 1) {
        phase_ = Phase::client_init;
        expect(1);
      } else if (buf_[0] == 2) {
        phase_ = Phase::vnc_auth;
        expect(16);
      } else {
        stop(ParseProblem::unsupported_security, buf_[0]);
      }
      return;
    case Phase::vnc_auth:
      phase_ = Phase::client_init;
      expect(1);
      return;
    case Phase::client_init:
      phase_ = Phase::messages;
      expect(1);
      return;
    case Phase::messages: break;
    case Phase::stopped: return;
  }

  const std::size_t length = fixed_length(buf_, have_);
  if (length == 0 || length > kBufSize) {
    stop(ParseProblem::unknown_message, buf_[0]);
    return;
  }
  if (length > have_) {
    need_ = length;  // keep what we have, read the rest of the fixed part
    return;
  }
  ++messages_;
  if (buf_[0] == 4) {
    sink(context, RfbInput{InputKind::key, u32(buf_ + 4), buf_[1] != 0, 0, 0});
  } else if (buf_[0] == 255 && buf_[1] == 0) {
    sink(context, RfbInput{InputKind::key, u32(buf_ + 4), u16(buf_ + 2) != 0, 0, 0});
  } else if (buf_[0] == 5) {
    const std::uint8_t mask = buf_[1];
    const std::uint8_t changed = static_cast<std::uint8_t>(mask ^ buttons_);
    if (changed == 0) ++motion_;
    for (unsigned bit = 0; bit < 8; ++bit) {
      if (!(changed & (1u << bit))) continue;
      sink(context, RfbInput{InputKind::button, bit + 1, (mask & (1u << bit)) != 0, u16(buf_ + 2), u16(buf_ + 4)});
    }
    buttons_ = mask;
  }
  skip_ = payload_length(buf_);
  expect(1);
}

}  // namespace pictor::proxyhook
