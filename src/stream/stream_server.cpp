// pictor-stream-server: the stream adapter's server half, started by Pictor on the app's display.
// A GStreamer pipeline of stock elements captures the display (ximagesrc, XShm), converts and
// encodes it (x264enc, zero latency) and sends RTP (rtph264pay) over UDP or TCP; pad probes time
// each frame into stream_frames.csv; the input agent injects the client's inputs.
#include <gio/gio.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <glib-unix.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "client/x_connection.h"
#include "core/clock.h"
#include "core/csv_files.h"
#include "core/error.h"
#include "core/files.h"
#include "stream/gst_util.h"
#include "stream/input_agent.h"
#include "stream/pts_stamps.h"
#include "stream/stream_options.h"
#include "tag/marker_decode.h"

namespace {

using namespace pictor;
using stream::make_element;
using stream::pts_of;
using stream::InputAgent;

struct Args {
  std::string display, out_dir, options;
  int dest_port = 0;   // udp: where the RTP packets go (the client, or the relay before it)
  int listen_port = 0; // tcp: where the client connects
  int input_port = 0;
};

struct Capture {
  std::int64_t captured_ns = 0;
  std::optional<tag::MarkerPayload> marker;
};
struct Encoding {
  Capture capture;
  std::uint64_t pts = 0;  // as captured (the encoder shifts its output's)
  std::int64_t in_ns = 0;
};

// What the probes share. Probes run on the pipeline's streaming thread; the window is found by
// another thread and the rows are flushed by the main loop.
struct Server {
  Args args;
  stream::StreamOptions options;
  GstElement* pipeline = nullptr;
  GstElement* encoder = nullptr;
  std::mutex mutex;
  stream::PtsStamps<Capture> captured;
  stream::PtsStamps<Encoding> encoding;
  std::optional<tag::WindowRect> window;
  files::RowFile frames;
  std::uint64_t captures = 0, encoded = 0, keyframes = 0, bytes = 0, markers = 0;
  std::optional<GstVideoInfo> video;
  std::atomic<bool> stopping{false};
  std::string error;
};

GstPadProbeReturn on_captured(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  auto& s = *static_cast<Server*>(data);
  const std::int64_t now = monotonic_ns();
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  Capture c{now, std::nullopt};
  std::lock_guard lock(s.mutex);
  if (!s.video) {
    if (GstCaps* caps = gst_pad_get_current_caps(pad)) {
      GstVideoInfo vi;
      if (gst_video_info_from_caps(&vi, caps)) s.video = vi;
      gst_caps_unref(caps);
    }
  }
  GstMapInfo map;
  if (s.window && s.video && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
    // ximagesrc gives the screen as BGRx (a 24-bit TrueColor Xvfb on a little-endian machine).
    const tag::ImageView view{map.data, GST_VIDEO_INFO_WIDTH(&*s.video), GST_VIDEO_INFO_HEIGHT(&*s.video),
                              GST_VIDEO_INFO_PLANE_STRIDE(&*s.video, 0), tag::PixelFormat::bgrx};
    try {
      c.marker = tag::decode(view, *s.window);
    } catch (const std::exception&) {
    }
    gst_buffer_unmap(buffer, &map);
  }
  ++s.captures;
  if (c.marker) ++s.markers;
  s.captured.enter(pts_of(buffer), c);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn on_encoder_in(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto& s = *static_cast<Server*>(data);
  const std::int64_t now = monotonic_ns();
  const std::uint64_t pts = pts_of(GST_PAD_PROBE_INFO_BUFFER(info));
  std::lock_guard lock(s.mutex);
  Encoding e;
  if (auto c = s.captured.leave(pts)) e.capture = *c;
  e.pts = pts;
  e.in_ns = now;
  s.encoding.enter(pts, e);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn on_encoder_out(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto& s = *static_cast<Server*>(data);
  const std::int64_t now = monotonic_ns();
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  const bool key = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
  const gsize size = gst_buffer_get_size(buffer);
  std::lock_guard lock(s.mutex);
  const auto e = s.encoding.leave_oldest();
  ++s.encoded;
  s.bytes += size;
  if (key) ++s.keyframes;
  auto out = std::back_inserter(s.frames.rows());
  if (e) fmt::format_to(out, "{}", e->pts);
  s.frames.rows() += ',';
  if (e && e->capture.captured_ns) fmt::format_to(out, "{}", e->capture.captured_ns);
  s.frames.rows() += ',';
  if (e) fmt::format_to(out, "{}", e->in_ns);
  fmt::format_to(out, ",{},{},{},", now, size, key ? 1 : 0);
  if (e && e->capture.marker) fmt::format_to(out, "{},{}", e->capture.marker->tag, e->capture.marker->frame_lo);
  else s.frames.rows() += ',';
  s.frames.rows() += '\n';
  return GST_PAD_PROBE_OK;
}

GstElement* server_element(const char* factory, const char* name) {
  return make_element(factory, name, "", "gstreamer1.0-plugins-base, -good, -ugly, -x");
}

void on_client_added(GstElement*, GObject* socket, gpointer) {
  // Nagle would hold back the last packets of a frame until the previous ones are acknowledged.
  if (G_IS_SOCKET(socket)) g_socket_set_option(G_SOCKET(socket), IPPROTO_TCP, TCP_NODELAY, 1, nullptr);
}

void build_pipeline(Server& s) {
  const auto& o = s.options;
  s.pipeline = gst_pipeline_new("pictor-stream-server");
  GstElement* src = server_element("ximagesrc", "capture");
  g_object_set(src, "display-name", s.args.display.c_str(), "use-damage", FALSE, "show-pointer", FALSE, nullptr);
  GstElement* rate = server_element("capsfilter", "rate");
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "framerate", GST_TYPE_FRACTION, o.fps, 1, nullptr);
  g_object_set(rate, "caps", caps, nullptr);
  gst_caps_unref(caps);
  GstElement* convert = server_element("videoconvert", "convert");
  GstElement* i420 = server_element("capsfilter", "i420");
  caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "I420", nullptr);
  g_object_set(i420, "caps", caps, nullptr);
  gst_caps_unref(caps);
  s.encoder = server_element("x264enc", "encode");
  gst_util_set_object_arg(G_OBJECT(s.encoder), "tune", "zerolatency");
  gst_util_set_object_arg(G_OBJECT(s.encoder), "speed-preset", o.preset.c_str());
  g_object_set(s.encoder, "bitrate", static_cast<guint>(o.bitrate_kbit), "key-int-max", static_cast<guint>(o.gop),
               nullptr);
  GstElement* pay = server_element("rtph264pay", "pay");
  // SPS/PPS with every keyframe, so a client that joins late (or lost them) can start.
  g_object_set(pay, "config-interval", -1, "pt", 96, "mtu", 1400u, nullptr);
  gst_bin_add_many(GST_BIN(s.pipeline), src, rate, convert, i420, s.encoder, pay, nullptr);
  GstElement* last = pay;
  if (o.transport == stream::Transport::udp) {
    GstElement* sink = server_element("udpsink", "send");
    g_object_set(sink, "host", "127.0.0.1", "port", s.args.dest_port, "bind-address", "127.0.0.1", "sync", FALSE,
                 "async", FALSE, nullptr);
    gst_bin_add(GST_BIN(s.pipeline), sink);
    if (!gst_element_link_many(src, rate, convert, i420, s.encoder, pay, sink, nullptr))
      throw RunError("cannot link the stream server's pipeline");
  } else {
    GstElement* frame = server_element("rtpstreampay", "frame");
    GstElement* sink = server_element("tcpserversink", "send");
    g_object_set(sink, "host", "127.0.0.1", "port", s.args.listen_port, "sync", FALSE, "async", FALSE, nullptr);
    g_signal_connect(sink, "client-added", G_CALLBACK(on_client_added), nullptr);
    gst_bin_add_many(GST_BIN(s.pipeline), frame, sink, nullptr);
    if (!gst_element_link_many(src, rate, convert, i420, s.encoder, pay, frame, sink, nullptr))
      throw RunError("cannot link the stream server's pipeline");
  }
  (void)last;
  GstPad* pad = gst_element_get_static_pad(src, "src");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_captured, &s, nullptr);
  gst_object_unref(pad);
  pad = gst_element_get_static_pad(s.encoder, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_encoder_in, &s, nullptr);
  gst_object_unref(pad);
  pad = gst_element_get_static_pad(s.encoder, "src");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_encoder_out, &s, nullptr);
  gst_object_unref(pad);
}

// The app's window, for reading the marker at capture: found when the app maps it.
void find_window(Server& s) {
  try {
    auto x = client::XConnection::open(s.args.display);
    const client::WindowInfo w =
        client::wait_for_app_window(*x, 3600, [&s] { return !s.stopping.load(); });
    std::lock_guard lock(s.mutex);
    s.window = tag::WindowRect{w.x, w.y, w.width, w.height};
  } catch (const std::exception&) {
    // No window (the session ended first): captures carry no marker.
  }
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--display") a.display = v;
    else if (k == "--out") a.out_dir = v;
    else if (k == "--options") a.options = v;
    else if (k == "--dest-port") a.dest_port = std::stoi(v);
    else if (k == "--listen-port") a.listen_port = std::stoi(v);
    else if (k == "--input-port") a.input_port = std::stoi(v);
    else throw UsageError("unknown argument " + k);
  }
  if (a.display.empty() || a.out_dir.empty() || a.input_port == 0)
    throw UsageError("usage: pictor-stream-server --display :N --out DIR --input-port P (--dest-port P | "
                     "--listen-port P) [--options TEXT]");
  return a;
}

gboolean on_signal(gpointer loop) {
  g_main_loop_quit(static_cast<GMainLoop*>(loop));
  return G_SOURCE_REMOVE;
}

gboolean on_bus(GstBus*, GstMessage* m, gpointer data) {
  auto& s = *static_cast<Server*>(data);
  if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
    GError* e = nullptr;
    gst_message_parse_error(m, &e, nullptr);
    s.error = fmt::format("{}: {}", GST_OBJECT_NAME(m->src), e ? e->message : "error");
    if (e) g_error_free(e);
    std::fprintf(stderr, "pictor-stream-server: %s\n", s.error.c_str());
  }
  return TRUE;
}

void write_summary(Server& s, InputAgent* agent) {
  std::lock_guard lock(s.mutex);
  const std::string json = fmt::format(
      "{{\n  \"schema\": 1,\n  \"options\": \"{}\",\n  \"captured\": {},\n  \"encoded\": {},\n  \"keyframes\": {},\n"
      "  \"bytes\": {},\n  \"captures_with_marker\": {},\n  \"not_encoded\": {},\n  \"inputs\": {},\n"
      "  \"bad_input_messages\": {},\n  \"input_connections\": {},\n  \"error\": {}\n}}\n",
      stream::to_string(s.options), s.captures, s.encoded, s.keyframes, s.bytes, s.markers,
      s.captured.dropped() + s.encoding.dropped(), agent ? agent->inputs() : 0, agent ? agent->bad_messages() : 0,
      agent ? agent->connections() : 0, s.error.empty() ? "null" : "\"" + s.error + "\"");
  files::write_file(s.args.out_dir + "/stream_server.json", json);
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  Server s;
  try {
    s.args = parse_args(argc, argv);
    s.options = stream::parse_stream_options(s.args.options);
    s.frames = files::RowFile::create(s.args.out_dir + "/" + std::string(csv_files::kStreamFrames.name),
                                      csv_files::kStreamFrames.header);
    s.frames.flush();
    build_pipeline(s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pictor-stream-server: %s\n", e.what());
    return 2;
  }
  std::unique_ptr<InputAgent> agent;
  try {
    agent = std::make_unique<InputAgent>(s.args.display, s.args.input_port, s.args.out_dir, [&s] {
      // A new client starts at a keyframe rather than waiting up to a GOP.
      gst_element_send_event(s.encoder, gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0));
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pictor-stream-server: %s\n", e.what());
    return 1;
  }
  std::thread window([&s] { find_window(s); });
  GMainLoop* loop = g_main_loop_new(nullptr, FALSE);
  GstBus* bus = gst_element_get_bus(s.pipeline);
  gst_bus_add_watch(bus, on_bus, &s);
  gst_object_unref(bus);
  g_unix_signal_add(SIGTERM, on_signal, loop);
  g_unix_signal_add(SIGINT, on_signal, loop);
  g_timeout_add(100, [](gpointer data) -> gboolean {
    auto& sv = *static_cast<Server*>(data);
    std::lock_guard lock(sv.mutex);
    sv.frames.flush();
    return TRUE;
  }, &s);
  g_timeout_add(100, [](gpointer data) -> gboolean {
    static_cast<InputAgent*>(data)->flush();
    return TRUE;
  }, agent.get());
  if (gst_element_set_state(s.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    std::fprintf(stderr, "pictor-stream-server: the pipeline would not start (display %s)\n", s.args.display.c_str());
    s.stopping = true;
    window.join();
    return 1;
  }
  std::printf("READY\n");
  std::fflush(stdout);
  g_main_loop_run(loop);
  s.stopping = true;
  gst_element_set_state(s.pipeline, GST_STATE_NULL);
  agent->stop();
  agent->flush(true);
  window.join();
  {
    std::lock_guard lock(s.mutex);
    s.frames.close();
  }
  try {
    write_summary(s, agent.get());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pictor-stream-server: %s\n", e.what());
  }
  gst_object_unref(s.pipeline);
  g_main_loop_unref(loop);
  return s.error.empty() ? 0 : 1;
}
