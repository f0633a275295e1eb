#include "stream/input_agent.h"

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "client/x_connection.h"
#include "core/clock.h"
#include "core/csv_files.h"
#include "core/error.h"
#include "stream/input_wire.h"

namespace pictor::stream {

InputAgent::InputAgent(const std::string& display, int port, const std::string& out_dir,
                       std::function<void()> on_connect)
    : display_(display), on_connect_(std::move(on_connect)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw RunError("input agent: cannot create a socket");
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // loopback only: there is no authentication
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, 2) != 0) {
    const int e = errno;
    ::close(listen_fd_);
    throw RunError(fmt::format("input agent: cannot listen on 127.0.0.1:{} ({})", port, std::strerror(e)));
  }
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  events_ = files::RowFile::create(out_dir + "/" + std::string(csv_files::kProxyEvents.name),
                                   csv_files::kProxyEvents.header);
  events_.flush();
  thread_ = std::thread([this] { loop(); });
}

InputAgent::~InputAgent() {
  stop();
  flush(true);
}

void InputAgent::stop() {
  if (stopping_.exchange(true)) return;
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto w = ::write(wake_fd_, &one, sizeof one);
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
  ::close(wake_fd_);
}

bool InputAgent::flush(bool last) {
  std::lock_guard lock(rows_mutex_);
  if (!events_.is_open()) return !events_.given_up();
  return last ? events_.close() : events_.flush();
}

void InputAgent::loop() {
  while (!stopping_.load()) {
    pollfd p[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (::poll(p, 2, -1) < 0 && errno != EINTR) return;
    if (p[1].revents) return;
    if (!(p[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    serve(fd);
    ::close(fd);
  }
}

// One client: each message read is an `input` row when it completes, its XTest call a `deliver`.
void InputAgent::serve(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ++connections_;
  std::unique_ptr<client::XConnection> x;
  try {
    x = client::XConnection::open(display_);
  } catch (const std::exception&) {
    return;  // the display is gone: the server is ending
  }
  Display* dpy = x->display();
  {
    const std::int64_t now = monotonic_ns();
    std::lock_guard lock(rows_mutex_);
    fmt::format_to(std::back_inserter(events_.rows()), "connect,{},{},{},,,,,,,,,,\n", now, now, fd);
  }
  if (on_connect_) on_connect_();
  WireMessage m{};
  std::size_t have = 0;
  while (!stopping_.load() && !x->lost()) {
    pollfd p[2] = {{fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (::poll(p, 2, 100) < 0 && errno != EINTR) return;
    if (p[1].revents) return;
    if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    const auto n = ::read(fd, m.data() + have, kWireBytes - have);
    if (n <= 0) return;  // the client went away
    have += static_cast<std::size_t>(n);
    if (have < kWireBytes) continue;
    have = 0;
    const std::int64_t read_ns = monotonic_ns();
    const auto in = decode(m);
    if (!in) {
      ++bad_;
      continue;
    }
    if (in->x >= 0 && in->y >= 0) XTestFakeMotionEvent(dpy, DefaultScreen(dpy), in->x, in->y, CurrentTime);
    if (in->kind == WireKind::motion) {
      XFlush(dpy);
      continue;
    }
    const bool key = in->kind == WireKind::key;
    const std::int64_t start = monotonic_ns();
    unsigned detail = in->code;
    if (key) {
      detail = XKeysymToKeycode(dpy, static_cast<KeySym>(in->code));
      if (detail != 0) XTestFakeKeyEvent(dpy, detail, in->down, CurrentTime);
    } else {
      XTestFakeButtonEvent(dpy, in->code, in->down, CurrentTime);
    }
    XFlush(dpy);
    const std::int64_t end = monotonic_ns();
    ++inputs_;
    std::lock_guard lock(rows_mutex_);
    auto out = std::back_inserter(events_.rows());
    const char* kind = key ? "key" : "button";
    fmt::format_to(out, "input,{},{},{},{},{},{},{},,,,,,\n", read_ns, read_ns, fd, kWireBytes, kind, in->code,
                   in->down ? 1 : 0);
    if (detail != 0) fmt::format_to(out, "deliver,{},{},,,{},{},{},,,,,,\n", start, end, kind, detail, in->down ? 1 : 0);
  }
}

}  // namespace pictor::stream
