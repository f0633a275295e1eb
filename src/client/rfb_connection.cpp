#include "client/rfb_connection.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <rfb/rfbclient.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>

#include "client/rfb_socket.h"
#include "core/clock.h"
#include "core/error.h"

namespace pictor::client {

namespace {

// Server-to-client messages libvncclient 0.9.14 does not know (TigerVNC).
constexpr std::uint8_t kEndOfContinuousUpdates = 150;
constexpr std::uint8_t kFence = 248;
// Fence flags: BlockBefore, BlockAfter, SyncNext (all trivially honoured by a client that handles
// messages one at a time, in order) and Request.
constexpr std::uint32_t kFenceFlagsSupported = 0x7;
constexpr std::uint32_t kFenceRequest = 0x80000000u;
constexpr std::size_t kMaxLogLines = 400;

int g_client_data_tag;  // its address keys our State in libvncclient's per-client data

}  // namespace

struct RfbConnection::State {
  RfbConnectionOptions options;
  rfbClient* client = nullptr;
  int fd = -1;
  std::string where;
  std::vector<std::int32_t> encodings;

  mutable std::mutex log_mutex;
  std::deque<std::string> log;
  std::uint64_t log_dropped = 0;

  // The message being handled.
  RfbUpdate update;
  bool finished = false;
  std::string fatal;  // set by the extension: the message cannot be handled

  bool cu_offered = false, cu_enabled = false;
  std::uint64_t fences = 0;
  std::atomic<bool> reading_shut{false};

  void add_log(std::string line) {
    std::lock_guard lock(log_mutex);
    if (log.size() >= kMaxLogLines) {
      log.pop_front();
      ++log_dropped;
    }
    log.push_back(std::move(line));
  }
  std::string last_log() const {
    std::lock_guard lock(log_mutex);
    return log.empty() ? std::string() : log.back();
  }
  std::string failure_cause() const;
  void enable_continuous_updates();
  void answer_fence();
};

namespace {

// libvncclient logs through two process-wide function pointers and passes no client: lines go to
// the connection whose call is in progress on this thread.
thread_local RfbConnection::State* t_sink = nullptr;

struct SinkGuard {
  explicit SinkGuard(RfbConnection::State* s) : previous(t_sink) { t_sink = s; }
  ~SinkGuard() { t_sink = previous; }
  RfbConnection::State* previous;
};

void log_to_sink(const char* format, ...) {
  if (!t_sink) return;
  char buf[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  std::string line(buf);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  t_sink->add_log(std::move(line));
}

RfbConnection::State* state_of(rfbClient* c) {
  return static_cast<RfbConnection::State*>(rfbClientGetClientData(c, &g_client_data_tag));
}

rfbBool on_unknown_message(rfbClient* c, rfbServerToClientMsg* msg);

rfbClientProtocolExtension g_extension = {nullptr, nullptr, on_unknown_message, nullptr, nullptr, nullptr};

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    rfbClientLog = log_to_sink;
    rfbClientErr = log_to_sink;
    rfbClientRegisterExtension(&g_extension);
  });
}

bool write_all(rfbClient* c, const std::vector<char>& bytes) {
  return WriteToRFBServer(c, bytes.data(), static_cast<unsigned>(bytes.size()));
}

void put16(std::vector<char>& b, unsigned v) {
  b.push_back(static_cast<char>((v >> 8) & 0xff));
  b.push_back(static_cast<char>(v & 0xff));
}
void put32(std::vector<char>& b, std::uint32_t v) {
  put16(b, v >> 16);
  put16(b, v & 0xffff);
}

void on_rect(rfbClient* c, int x, int y, int w, int h) {
  RfbConnection::State* s = state_of(c);
  // libvncclient reports some pseudo-rectangles too (QEMUExtendedKeyEvent, 0 x 0): no pixels.
  if (!s || w <= 0 || h <= 0) return;
  RfbUpdate& u = s->update;
  if (u.w == 0 || u.h == 0) {
    u.x = x, u.y = y, u.w = w, u.h = h;
  } else {
    const int x1 = std::max(u.x + u.w, x + w), y1 = std::max(u.y + u.h, y + h);
    u.x = std::min(u.x, x), u.y = std::min(u.y, y);
    u.w = x1 - u.x, u.h = y1 - u.y;
  }
  ++u.rects;
  u.rect_list.push_back(tag::WindowRect{x, y, w, h});
}

void on_finished(rfbClient* c) {
  RfbConnection::State* s = state_of(c);
  if (!s) return;
  s->update.end_ns = monotonic_ns();
  s->finished = true;
}

// Messages libvncclient's own switch does not know reach the extensions with only the type byte
// read. Returning FALSE would make libvncclient read 256 more bytes (blocking on a short garbage
// message), so unknown types are claimed and reported through `fatal` instead.
rfbBool on_unknown_message(rfbClient* c, rfbServerToClientMsg* msg) {
  RfbConnection::State* s = state_of(c);
  if (!s) return FALSE;
  if (msg->type == kEndOfContinuousUpdates) {
    s->cu_offered = true;
    if (s->options.encodings.continuous_updates && !s->cu_enabled) s->enable_continuous_updates();
    return TRUE;
  }
  if (msg->type == kFence) {
    s->answer_fence();
    return TRUE;
  }
  s->fatal = fmt::format("rfb: unknown message type 0x{:02x} from {}", msg->type, s->where);
  return TRUE;
}

}  // namespace

std::string RfbConnection::State::failure_cause() const {
  if (reading_shut.load()) return "rfb: reading stopped by the client";
  const std::string last = last_log();
  if (last.find("closed connection") != std::string::npos)
    return fmt::format("rfb: server {} closed the connection", where);
  if (last.find("Connection reset by peer") != std::string::npos)
    return fmt::format("rfb: server {} reset the connection", where);
  if (last.find("Connection timed out") != std::string::npos)
    return fmt::format("rfb: server {} stopped sending in the middle of a message (nothing for {} s)",
                       where, client ? client->readTimeout : 0u);
  if (last.empty()) return fmt::format("rfb: libvncclient failed on a message from {}", where);
  return fmt::format("rfb: {} ({})", last, where);
}

void RfbConnection::State::enable_continuous_updates() {
  // EnableContinuousUpdates: type, enable flag, then the region (the whole framebuffer).
  std::vector<char> m = {static_cast<char>(kEndOfContinuousUpdates), 1};
  put16(m, 0);
  put16(m, 0);
  put16(m, static_cast<unsigned>(client->width));
  put16(m, static_cast<unsigned>(client->height));
  if (!write_all(client, m)) {
    fatal = fmt::format("rfb: cannot enable continuous updates on {}: {}", where, failure_cause());
    return;
  }
  cu_enabled = true;
  // The server now sends on its own: libvncclient's request after every update would only add
  // traffic, so its FramebufferUpdateRequest is switched off (re-cleared after each message,
  // since a SupportedMessages pseudo-rectangle rewrites the bits).
  client->supportedMessages.client2server[rfbFramebufferUpdateRequest / 8] &=
      static_cast<std::uint8_t>(~(1u << (rfbFramebufferUpdateRequest % 8)));
}

void RfbConnection::State::answer_fence() {
  unsigned char head[8];  // 3 padding bytes, flags (4), payload length (1)
  if (!ReadFromRFBServer(client, reinterpret_cast<char*>(head), sizeof head)) {
    fatal = failure_cause();
    return;
  }
  const std::uint32_t flags = (std::uint32_t{head[3]} << 24) | (std::uint32_t{head[4]} << 16) |
                              (std::uint32_t{head[5]} << 8) | head[6];
  const unsigned length = head[7];
  if (length > 64) {
    fatal = fmt::format("rfb: fence with a {}-byte payload (at most 64) from {}", length, where);
    return;
  }
  char payload[64];
  if (length > 0 && !ReadFromRFBServer(client, payload, length)) {
    fatal = failure_cause();
    return;
  }
  if (!(flags & kFenceRequest)) return;  // an answer to a fence we never send
  std::vector<char> m = {static_cast<char>(kFence), 0, 0, 0};
  put32(m, flags & kFenceFlagsSupported);
  m.push_back(static_cast<char>(length));
  m.insert(m.end(), payload, payload + length);
  if (!write_all(client, m)) {
    fatal = failure_cause();
    return;
  }
  ++fences;
}

std::vector<std::int32_t> libvncclient_encodings() {
  install_once();
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    throw RunError("rfb: socketpair failed while reading libvncclient's encodings");
  rfbClient* c = rfbGetClient(8, 3, 4);
  c->sock = pair[0];
  c->appData.encodingsString = "tight copyrect";
  c->appData.enableJPEG = TRUE;
  c->appData.useRemoteCursor = TRUE;
  c->canHandleNewFBSize = TRUE;
  // Set by the handshake on a real connection; needed for SetFormatAndEncodings to write.
  c->supportedMessages.client2server[0] |= (1u << rfbSetPixelFormat) | (1u << rfbSetEncodings);
  const bool ok = SetFormatAndEncodings(c);
  c->sock = RFB_INVALID_SOCKET;
  rfbClientCleanup(c);
  ::close(pair[0]);
  std::vector<unsigned char> bytes(sz_rfbSetPixelFormatMsg + sz_rfbSetEncodingsMsg + 4 * 256);
  ssize_t n = ok ? ::recv(pair[1], bytes.data(), bytes.size(), MSG_DONTWAIT) : -1;
  ::close(pair[1]);
  const auto at = static_cast<std::size_t>(sz_rfbSetPixelFormatMsg);
  if (n < static_cast<ssize_t>(at + sz_rfbSetEncodingsMsg) || bytes[at] != rfbSetEncodings)
    throw RunError("rfb: could not read the encodings libvncclient advertises");
  const std::size_t count = (std::size_t{bytes[at + 2]} << 8) | bytes[at + 3];
  std::vector<std::int32_t> out;
  for (std::size_t i = 0; i < count && at + 4 + 4 * i + 4 <= static_cast<std::size_t>(n); ++i) {
    const unsigned char* p = &bytes[at + 4 + 4 * i];
    out.push_back(static_cast<std::int32_t>((std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) |
                                            (std::uint32_t{p[2]} << 8) | p[3]));
  }
  return out;
}

std::unique_ptr<RfbConnection> RfbConnection::open(const RfbConnectionOptions& options) {
  install_once();
  // Checked before connecting: a bad quality is the user's error, not the server's.
  const std::vector<std::int32_t> encodings = rfb::build_encodings(options.encodings, libvncclient_encodings());
  std::unique_ptr<RfbConnection> conn(new RfbConnection());
  conn->state_ = std::make_unique<State>();
  State& s = *conn->state_;
  s.options = options;
  s.encodings = encodings;
  s.where = fmt::format("{}:{}", options.host, options.port);
  SinkGuard sink(&s);
  rfb::SigpipeBlock no_sigpipe;

  s.fd = rfb::connect_tcp(options.host, options.port, options.connect_timeout_s);
  rfbClient* c = rfbGetClient(8, 3, 4);
  if (!c) {
    ::close(s.fd);
    throw RunError("rfb: out of memory");
  }
  s.client = c;
  c->sock = s.fd;
  std::free(c->serverHost);
  c->serverHost = strdup(options.host.c_str());
  c->serverPort = options.port;
  c->appData.shareDesktop = TRUE;  // do not disconnect other viewers
  c->appData.useRemoteCursor = TRUE;  // the server does not paint the cursor into the frames
  c->canHandleNewFBSize = TRUE;
  c->readTimeout = static_cast<unsigned>(std::max(1.0, std::ceil(options.connect_timeout_s)));
  c->GotFrameBufferUpdate = on_rect;
  c->FinishedFrameBufferUpdate = on_finished;
  rfbClientSetClientData(c, &g_client_data_tag, &s);

  if (!InitialiseRFBConnection(c))
    throw RunError(fmt::format("rfb: handshake with {} failed: {}", s.where,
                               s.last_log().empty() ? "no reason given" : s.last_log()));
  c->width = c->si.framebufferWidth;
  c->height = c->si.framebufferHeight;
  if (c->width <= 0 || c->height <= 0 || !c->MallocFrameBuffer(c))
    throw RunError(fmt::format("rfb: server {} announced an unusable framebuffer {}x{}", s.where,
                               c->width, c->height));
  c->updateRect.x = c->updateRect.y = 0;
  c->updateRect.w = c->width;
  c->updateRect.h = c->height;

  // SetPixelFormat: libvncclient's 32-bit true colour, red in the low byte (rgbx in memory).
  rfbSetPixelFormatMsg spf{};
  spf.type = rfbSetPixelFormat;
  spf.format = c->format;
  spf.format.redMax = htons(c->format.redMax);
  spf.format.greenMax = htons(c->format.greenMax);
  spf.format.blueMax = htons(c->format.blueMax);
  std::vector<char> se = {static_cast<char>(rfbSetEncodings), 0};
  put16(se, static_cast<unsigned>(encodings.size()));
  for (const std::int32_t e : encodings) put32(se, static_cast<std::uint32_t>(e));
  if (!WriteToRFBServer(c, reinterpret_cast<const char*>(&spf), sz_rfbSetPixelFormatMsg) ||
      !write_all(c, se) || !SendFramebufferUpdateRequest(c, 0, 0, c->width, c->height, FALSE))
    throw RunError(fmt::format("rfb: setting up the session with {} failed: {}", s.where, s.failure_cause()));
  c->readTimeout = static_cast<unsigned>(std::max(1, options.read_timeout_s));
  return conn;
}

RfbConnection::~RfbConnection() {
  if (!state_ || !state_->client) {
    if (state_ && state_->fd >= 0) ::close(state_->fd);
    return;
  }
  SinkGuard sink(state_.get());
  rfbClient* c = state_->client;
  std::free(c->frameBuffer);  // rfbClientCleanup leaves the framebuffer to its owner
  c->frameBuffer = nullptr;
  c->sock = RFB_INVALID_SOCKET;
  rfbClientCleanup(c);
  ::close(state_->fd);
}

int RfbConnection::fd() const { return state_->fd; }

bool RfbConnection::has_buffered() const { return state_->client->buffered > 0; }

std::optional<RfbUpdate> RfbConnection::handle_message(std::int64_t start_ns) {
  State& s = *state_;
  rfbClient* c = s.client;
  SinkGuard sink(&s);
  rfb::SigpipeBlock no_sigpipe;
  s.update = RfbUpdate{};
  s.finished = false;
  s.fatal.clear();
  // Stream position = bytes the process took from the socket minus what libvncclient read ahead.
  const auto before = rfb::bytes_read_from(s.fd);
  const auto before_buffered = static_cast<std::int64_t>(c->buffered);
  if (!HandleRFBServerMessage(c)) throw RunError(s.fatal.empty() ? s.failure_cause() : s.fatal);
  if (!s.fatal.empty()) throw RunError(s.fatal);
  if (s.cu_enabled)
    c->supportedMessages.client2server[rfbFramebufferUpdateRequest / 8] &=
        static_cast<std::uint8_t>(~(1u << (rfbFramebufferUpdateRequest % 8)));
  if (!s.finished) return std::nullopt;
  RfbUpdate u = std::move(s.update);
  u.start_ns = std::min(start_ns, u.end_ns);
  if (before) u.offset = *before - before_buffered;
  if (const auto after = rfb::bytes_read_from(s.fd); before && after)
    u.bytes = (*after - static_cast<std::int64_t>(c->buffered)) - (*before - before_buffered);
  return u;
}

bool RfbConnection::send_key(std::uint32_t keysym, bool down) {
  SinkGuard sink(state_.get());
  rfb::SigpipeBlock no_sigpipe;
  return SendKeyEvent(state_->client, keysym, down ? TRUE : FALSE);
}

bool RfbConnection::send_pointer(int x, int y, int button_mask) {
  SinkGuard sink(state_.get());
  rfb::SigpipeBlock no_sigpipe;
  return SendPointerEvent(state_->client, x, y, button_mask);
}

tag::ImageView RfbConnection::framebuffer() const {
  const rfbClient* c = state_->client;
  return tag::ImageView{c->frameBuffer, c->width, c->height, c->width * 4, tag::PixelFormat::rgbx};
}

int RfbConnection::width() const { return state_->client->width; }
int RfbConnection::height() const { return state_->client->height; }
bool RfbConnection::continuous_updates() const { return state_->cu_enabled; }
std::uint64_t RfbConnection::fences() const { return state_->fences; }

namespace {

nlohmann::json pixel_format_json(const rfbPixelFormat& f) {
  return {{"bits_per_pixel", f.bitsPerPixel}, {"depth", f.depth}, {"big_endian", f.bigEndian != 0},
          {"true_colour", f.trueColour != 0}, {"red_max", f.redMax}, {"green_max", f.greenMax},
          {"blue_max", f.blueMax}, {"red_shift", f.redShift}, {"green_shift", f.greenShift},
          {"blue_shift", f.blueShift}};
}

}  // namespace

nlohmann::json RfbConnection::info() const {
  const State& s = *state_;
  const rfbClient* c = s.client;
  nlohmann::json encodings = nlohmann::json::array();
  for (const std::int32_t e : s.encodings) encodings.push_back({{"name", rfb::encoding_name(e)}, {"number", e}});
  const auto& r = s.options.encodings;
  const int level = rfb::quality_level_for(r.jpeg_quality);
  return {{"server", s.where},
          {"desktop_name", c->desktopName ? c->desktopName : ""},
          {"protocol_version", fmt::format("{}.{}", c->major, c->minor)},
          {"framebuffer", {{"width", c->width}, {"height", c->height}}},
          {"pixel_format", pixel_format_json(c->format)},
          {"server_pixel_format", pixel_format_json(c->si.format)},
          {"encodings", encodings},
          {"jpeg_quality", r.jpeg_quality},
          {"quality_level", level},
          {"quality_level_jpeg_quality_tigervnc", rfb::tigervnc_level_quality(level)},
          {"subsampling", rfb::subsampling_name(r.subsampling)},
          {"compress_level", r.compress_level},
          {"continuous_updates",
           {{"requested", r.continuous_updates}, {"offered", s.cu_offered}, {"enabled", s.cu_enabled}}},
          {"fences_answered", s.fences}};
}

std::vector<std::string> RfbConnection::log_lines() const {
  std::lock_guard lock(state_->log_mutex);
  std::vector<std::string> out(state_->log.begin(), state_->log.end());
  if (state_->log_dropped > 0)
    out.insert(out.begin(), fmt::format("({} earlier line(s) dropped)", state_->log_dropped));
  return out;
}

void RfbConnection::shutdown_reading() {
  state_->reading_shut.store(true);
  ::shutdown(state_->fd, SHUT_RD);
}

}  // namespace pictor::client
