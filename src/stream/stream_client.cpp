#include "stream/stream_client.h"

#include <X11/Xlib.h>
#include <fmt/format.h>
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/rtp/gstrtpbuffer.h>
#include <gst/video/video.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "client/client_core.h"
#include "client/x_connection.h"
#include "core/clock.h"
#include "core/csv_files.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_util.h"
#include "stream/gst_util.h"
#include "stream/input_wire.h"
#include "stream/pts_stamps.h"

namespace pictor::stream {

// A frame's stamps around the decoder (not in the unnamed namespace: StreamClient::State holds them).
struct Decoding {
  std::int64_t in_ns = 0;
  std::size_t bytes = 0;
};
struct Decoded {
  std::int64_t in_ns = 0, out_ns = 0;
  std::size_t bytes = 0;
};

namespace {

constexpr std::int64_t kMaxWaitNs = 20'000'000;  // the loop's longest sleep
constexpr std::int64_t kFlushNs = 100'000'000;

using drivers::Input;

GstElement* client_element(const char* factory, const char* name) {
  return make_element(factory, name, "stream client: ", "gstreamer1.0-plugins-base, -good, -libav");
}

int connect_loopback(int port, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw RunError("stream client: cannot create a socket");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      const int one = 1;
      // An input is 16 bytes: Nagle would hold it back behind an unacknowledged one.
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return fd;
    }
    ::close(fd);
    if (std::chrono::steady_clock::now() > deadline)
      throw RunError(fmt::format("stream client: cannot connect to the input agent on 127.0.0.1:{} within {:g} s",
                                 port, timeout_s));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

struct StreamClient::State : client::ClientTransport {
  StreamClientOptions options;
  std::unique_ptr<client::ClientCore> core;
  std::unique_ptr<client::XConnection> server_x;
  client::LauncherHold launcher;
  std::map<unsigned, unsigned> keycodes;
  int input_fd = -1;
  GstElement* pipeline = nullptr;
  GstElement* sink = nullptr;
  GstElement* decoder = nullptr;
  files::RowFile received;
  std::int64_t last_flush_ns = 0;

  // Shared with the streaming thread's probes.
  std::mutex mutex;
  PtsStamps<Decoding> decoding;
  PtsStamps<Decoded> decoded;
  std::uint64_t packets = 0, lost = 0, reordered = 0, rtp_bytes = 0;
  int last_seq = -1;

  // The client thread's own.
  std::uint64_t frames = 0, decode_errors = 0, frames_without_stamp = 0;
  int frame_w = 0, frame_h = 0;
  std::vector<std::uint8_t> luma;  // last frame's Y plane, for drivers that look at pixels
  int luma_stride = 0;

  std::thread thread;
  std::atomic<bool> stop_requested{false}, finish_requested{false}, running{false};
  std::mutex stop_mutex;
  bool stopped = false;

  ~State() override {
    if (input_fd >= 0) ::close(input_fd);
    if (pipeline) {
      gst_element_set_state(pipeline, GST_STATE_NULL);
      gst_object_unref(pipeline);
    }
  }

  void write(const WireInput& in) {
    const WireMessage m = encode(in);
    std::size_t done = 0;
    while (done < m.size()) {
      const auto n = ::send(input_fd, m.data() + done, m.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw RunError("stream client: writing an input to the agent failed (connection lost)");
      done += static_cast<std::size_t>(n);
    }
  }
  std::int32_t screen_x(const Input& in) const { return in.x >= 0 ? options.window.x + in.x : -1; }
  std::int32_t screen_y(const Input& in) const { return in.y >= 0 ? options.window.y + in.y : -1; }

  void send_motion(const Input& in) override {
    write({WireKind::motion, false, 0, screen_x(in), screen_y(in)});
  }
  Sent send_tracked(const Input& in, bool button, bool press) override {
    unsigned detail = in.code;
    if (!button) {
      if (const auto it = keycodes.find(in.code); it != keycodes.end()) detail = it->second;
    }
    const WireInput w{button ? WireKind::button : WireKind::key, press, in.code, screen_x(in), screen_y(in)};
    // Stamped just before the write: the app cannot have read it earlier.
    const std::int64_t sent_ns = monotonic_ns();
    write(w);
    return {detail, sent_ns};
  }
  std::optional<tag::ImageView> window_image() override {
    if (luma.empty() || !window_problem().empty()) return std::nullopt;
    const auto& w = options.window;
    return tag::ImageView{luma.data() + static_cast<std::ptrdiff_t>(w.y) * luma_stride + w.x, w.width, w.height,
                          luma_stride, tag::PixelFormat::gray};
  }
  std::string window_problem() override {
    const auto& w = options.window;
    if (w.width < tag::kMarkerWidth || w.height < tag::kMarkerHeight) return "the app window is smaller than the marker";
    if (frame_w > 0 && (w.x < 0 || w.y < 0 || w.x + w.width > frame_w || w.y + w.height > frame_h))
      return fmt::format("the app window ({}x{} at {},{}) lies outside the {}x{} video", w.width, w.height, w.x, w.y,
                         frame_w, frame_h);
    return {};
  }

  void build();
  void on_sample(GstSample* sample);
  void poll_bus();
  void loop();
  void flush(std::int64_t now, bool force);
};

namespace {

GstPadProbeReturn on_rtp(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto& s = *static_cast<StreamClient::State*>(data);
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  if (!gst_rtp_buffer_map(buffer, GST_MAP_READ, &rtp)) return GST_PAD_PROBE_OK;
  const int seq = gst_rtp_buffer_get_seq(&rtp);
  gst_rtp_buffer_unmap(&rtp);
  std::lock_guard lock(s.mutex);
  ++s.packets;
  s.rtp_bytes += gst_buffer_get_size(buffer);
  if (s.last_seq >= 0) {
    const int gap = (seq - s.last_seq + 65536) % 65536;  // 1: the next packet
    if (gap == 0 || gap > 32768) {
      ++s.reordered;  // a duplicate or an older packet
      return GST_PAD_PROBE_OK;
    }
    s.lost += static_cast<std::uint64_t>(gap - 1);
  }
  s.last_seq = seq;
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn on_decoder_in(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto& s = *static_cast<StreamClient::State*>(data);
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  const std::int64_t now = monotonic_ns();
  std::lock_guard lock(s.mutex);
  s.decoding.enter(pts_of(buffer), {now, gst_buffer_get_size(buffer)});
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn on_decoder_out(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto& s = *static_cast<StreamClient::State*>(data);
  const std::int64_t now = monotonic_ns();
  const std::uint64_t pts = pts_of(GST_PAD_PROBE_INFO_BUFFER(info));
  std::lock_guard lock(s.mutex);
  Decoded d{-1, now, 0};
  if (const auto in = s.decoding.leave(pts)) d = {in->in_ns, now, in->bytes};
  s.decoded.enter(pts, d);
  return GST_PAD_PROBE_OK;
}

}  // namespace

void StreamClient::State::build() {
  pipeline = gst_pipeline_new("pictor-stream-client");
  GstElement* depay = client_element("rtph264depay", "depay");
  decoder = client_element("avdec_h264", "decode");
  // Frame threading holds a frame per thread (~35 ms here); slice threading returns each at once.
  gst_util_set_object_arg(G_OBJECT(decoder), "thread-type", "slice");
  // A lost packet is a decode error to count, never the end of the stream.
  g_object_set(decoder, "max-errors", -1, nullptr);
  sink = client_element("appsink", "frames");
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "I420", nullptr);
  g_object_set(sink, "caps", caps, "sync", FALSE, "max-buffers", 8u, "drop", FALSE, nullptr);
  gst_caps_unref(caps);
  gst_bin_add_many(GST_BIN(pipeline), depay, decoder, sink, nullptr);
  const char* rtp_caps = "application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96";
  if (options.transport == Transport::udp) {
    GstElement* src = client_element("udpsrc", "receive");
    caps = gst_caps_from_string(rtp_caps);
    g_object_set(src, "address", "127.0.0.1", "port", options.udp_port, "caps", caps, "buffer-size", 4 << 20,
                 nullptr);
    gst_caps_unref(caps);
    gst_bin_add(GST_BIN(pipeline), src);
    if (!gst_element_link_many(src, depay, decoder, sink, nullptr))
      throw RunError("stream client: cannot link the receiving pipeline");
  } else {
    GstElement* src = client_element("tcpclientsrc", "receive");
    g_object_set(src, "host", "127.0.0.1", "port", options.tcp_port, "do-timestamp", TRUE, nullptr);
    GstElement* framed = client_element("capsfilter", "framed");
    caps = gst_caps_from_string("application/x-rtp-stream,media=video,clock-rate=90000,encoding-name=H264,payload=96");
    g_object_set(framed, "caps", caps, nullptr);
    gst_caps_unref(caps);
    GstElement* unframe = client_element("rtpstreamdepay", "unframe");
    gst_bin_add_many(GST_BIN(pipeline), src, framed, unframe, nullptr);
    if (!gst_element_link_many(src, framed, unframe, depay, decoder, sink, nullptr))
      throw RunError("stream client: cannot link the receiving pipeline");
  }
  GstPad* pad = gst_element_get_static_pad(depay, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_rtp, this, nullptr);
  gst_object_unref(pad);
  pad = gst_element_get_static_pad(decoder, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_decoder_in, this, nullptr);
  gst_object_unref(pad);
  pad = gst_element_get_static_pad(decoder, "src");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_decoder_out, this, nullptr);
  gst_object_unref(pad);
}

void StreamClient::State::on_sample(GstSample* sample) {
  GstBuffer* buffer = gst_sample_get_buffer(sample);
  const std::uint64_t pts = pts_of(buffer);
  std::optional<Decoded> stamp;
  {
    std::lock_guard lock(mutex);
    stamp = decoded.leave(pts);
  }
  // The frame was the client's when the decoder handed it over; without that stamp, now.
  const std::int64_t seen_ns = stamp ? stamp->out_ns : monotonic_ns();
  if (!stamp) ++frames_without_stamp;
  ++frames;
  GstVideoInfo vi;
  GstCaps* caps = gst_sample_get_caps(sample);
  GstMapInfo map;
  if (!caps || !gst_video_info_from_caps(&vi, caps) || !gst_buffer_map(buffer, &map, GST_MAP_READ)) return;
  frame_w = GST_VIDEO_INFO_WIDTH(&vi);
  frame_h = GST_VIDEO_INFO_HEIGHT(&vi);
  const int stride = GST_VIDEO_INFO_PLANE_STRIDE(&vi, 0);
  // The Y plane is the marker's luma: black and white cells read as they do in RGB.
  const tag::ImageView y{map.data + GST_VIDEO_INFO_PLANE_OFFSET(&vi, 0), frame_w, frame_h, stride,
                         tag::PixelFormat::gray};
  const std::int64_t t0 = monotonic_ns();
  std::optional<tag::MarkerPayload> payload;
  if (window_problem().empty()) payload = tag::decode(y, options.window);
  const std::int64_t t1 = monotonic_ns();
  if (core->driver().wants_image()) {
    luma.assign(y.pixels, y.pixels + static_cast<std::ptrdiff_t>(stride) * frame_h);
    luma_stride = stride;
  }
  gst_buffer_unmap(buffer, &map);
  const double decode_us = stamp && stamp->in_ns >= 0 ? static_cast<double>(stamp->out_ns - stamp->in_ns) / 1e3
                                                      : std::numeric_limits<double>::quiet_NaN();
  core->frame_seen(payload, seen_ns, static_cast<double>(t1 - t0) / 1e3, decode_us);
  auto out = std::back_inserter(received.rows());
  fmt::format_to(out, "{},", pts);
  if (stamp && stamp->in_ns >= 0) fmt::format_to(out, "{}", stamp->in_ns);
  fmt::format_to(out, ",{},", seen_ns);
  if (stamp && stamp->in_ns >= 0) fmt::format_to(out, "{}", stamp->bytes);
  received.rows() += ',';
  if (payload) fmt::format_to(out, "{},{}", payload->tag, payload->frame_lo);
  else received.rows() += ',';
  received.rows() += '\n';
  if (core->stats().markers_read > 0 || !options.expect_marker) core->app_draws(options.warmup_s, monotonic_ns());
  if (payload) core->drive_now(monotonic_ns());
}

void StreamClient::State::poll_bus() {
  GstBus* bus = gst_element_get_bus(pipeline);
  while (GstMessage* m = gst_bus_pop_filtered(bus, static_cast<GstMessageType>(GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    const bool error = GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR;
    GError* e = nullptr;
    if (error) gst_message_parse_error(m, &e, nullptr);
    else gst_message_parse_warning(m, &e, nullptr);
    const std::string text = fmt::format("{}: {}", GST_OBJECT_NAME(m->src), e ? e->message : "?");
    const bool from_decoder = GST_MESSAGE_SRC(m) == GST_OBJECT(decoder);
    if (e) g_error_free(e);
    gst_message_unref(m);
    if (from_decoder) {
      ++decode_errors;  // a damaged frame (lost packets): counted, the stream goes on
    } else if (error) {
      gst_object_unref(bus);
      throw RunError("stream client: " + text);
    }
  }
  gst_object_unref(bus);
}

void StreamClient::State::flush(std::int64_t now, bool force) {
  if (!force && now - last_flush_ns < kFlushNs) return;
  last_flush_ns = now;
  if (!core->files->flush(now, force)) throw RunError("client: " + core->files->error());
  if (!(force ? received.close() : received.flush())) throw RunError("client: " + received.loss_note());
}

void StreamClient::State::loop() {
  core->start_waiting(options.first_frame_timeout_s, monotonic_ns());
  const std::string no_first_frame = fmt::format("no decoded frame with a readable marker within {:g} s; inputs "
                                                 "started anyway", options.first_frame_timeout_s);
  while (!stop_requested.load()) {
    std::int64_t now = monotonic_ns();
    if (core->awaiting_first_frame() && options.app_running && !options.app_running())
      throw RunError("client: the app exited before its first frame reached the client");
    core->turn(now, !core->driving() && launcher.holds(), finish_requested.load(), no_first_frame);
    flush(now, false);
    poll_bus();
    now = monotonic_ns();
    const std::int64_t wait_ns = std::max<std::int64_t>(core->wait_ns(now, kMaxWaitNs), 0);
    if (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), static_cast<GstClockTime>(wait_ns))) {
      on_sample(sample);
      gst_sample_unref(sample);
    } else if (gst_app_sink_is_eos(GST_APP_SINK(sink))) {
      throw RunError("stream client: the server ended the stream");
    }
  }
}

std::unique_ptr<StreamClient> StreamClient::start(const StreamClientOptions& options,
                                                  std::unique_ptr<drivers::Driver> driver) {
  if (!driver) throw UsageError("client: no input driver given");
  if (!gst_is_initialized()) gst_init(nullptr, nullptr);
  std::unique_ptr<StreamClient> client(new StreamClient());
  client->state_ = std::make_unique<State>();
  State& s = *client->state_;
  s.options = options;
  s.core = std::make_unique<client::ClientCore>(std::move(driver), s);
  if (options.server_display.empty()) s.keycodes = options.keycodes;
  if (!options.server_display.empty()) {
    s.server_x = client::XConnection::open(options.server_display);
    for (const drivers::InputCode& c : s.core->driver().vocabulary()) {
      if (c.button) continue;
      const KeyCode code = XKeysymToKeycode(s.server_x->display(), c.code);
      if (code == 0)
        throw RunError(fmt::format("client: key '{}' has no keycode on display '{}'",
                                   drivers::input_code_name(false, c.code), options.server_display));
      s.keycodes[c.code] = code;
    }
    s.launcher = client::LauncherHold(s.server_x.get());
  }
  s.build();
  if (gst_element_set_state(s.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    s.poll_bus();
    throw RunError("stream client: the receiving pipeline would not start");
  }
  s.input_fd = connect_loopback(options.input_port, options.connect_timeout_s);
  s.core->check_window(s.launcher.holds());
  s.core->files = std::make_unique<client::ClientFiles>(options.out_dir);
  s.received = files::RowFile::create(options.out_dir + "/" + std::string(csv_files::kStreamReceived.name),
                                      csv_files::kStreamReceived.header);
  s.received.flush();
  s.running.store(true);
  State* raw = &s;
  s.thread = std::thread([raw] {
    try {
      raw->loop();
    } catch (const std::exception& e) {
      if (!raw->stop_requested.load()) raw->core->stats().failure = e.what();
    }
    raw->running.store(false);
  });
  return client;
}

bool StreamClient::running() const { return state_ && state_->running.load(); }

void StreamClient::finish_inputs() {
  if (state_) state_->finish_requested.store(true);
}

client::ClientStats StreamClient::stop() {
  State& s = *state_;
  const StreamClient* client = this;
  client::ClientStats& stats = s.core->stats();
  std::lock_guard lock(s.stop_mutex);
  if (s.stopped) return stats;
  s.stopped = true;
  if (!s.thread.joinable()) return stats;
  s.stop_requested.store(true);
  s.thread.join();
  try {
    s.core->release_held();
  } catch (const std::exception& e) {
    if (stats.failure.empty()) stats.failure = e.what();
  }
  s.core->detach_driver();
  try {
    s.flush(0, true);
  } catch (const std::exception& e) {
    if (stats.failure.empty()) stats.failure = e.what();
  }
  s.core->files.reset();
  gst_element_set_state(s.pipeline, GST_STATE_NULL);
  try {
    write_json_file(s.options.out_dir + "/stream_client.json", client->stats_json());
  } catch (const std::exception& e) {
    if (stats.failure.empty()) stats.failure = std::string("client: ") + e.what();
  }
  s.core->add_stop_notes();
  if (s.decode_errors > 0)
    stats.notes.push_back(fmt::format("{} decoder error(s): frames damaged by lost packets (counted, not fatal)",
                                      s.decode_errors));
  return stats;
}

nlohmann::json StreamClient::stats_json() const {
  const State& s = *state_;
  auto& m = const_cast<std::mutex&>(s.mutex);
  std::lock_guard lock(m);
  return {{"frames_decoded", s.frames},
          {"decoder_errors", s.decode_errors},
          {"frames_without_decoder_stamp", s.frames_without_stamp},
          {"rtp_packets", s.packets},
          {"rtp_packets_lost", s.lost},
          {"rtp_packets_out_of_order", s.reordered},
          {"rtp_bytes", s.rtp_bytes},
          {"video", s.frame_w > 0 ? nlohmann::json(fmt::format("{}x{}", s.frame_w, s.frame_h)) : nlohmann::json(nullptr)}};
}

StreamClient::~StreamClient() {
  if (state_) stop();
}

}  // namespace pictor::stream
