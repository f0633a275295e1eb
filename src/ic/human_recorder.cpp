#include "ic/human_recorder.h"

#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <X11/extensions/record.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/clock.h"
#include "core/error.h"

namespace pictor::ic {

// Two connections, as XRecord requires: `control` creates and ends the context, `data` carries
// the intercepted events and is only used by the recording thread (Xlib connections are not
// shared between threads).
struct HumanRecorder::State {
  Display* control = nullptr;
  Display* data = nullptr;
  XRecordContext context = 0;
  std::thread thread;
  std::mutex mutex;
  struct Raw {
    std::int64_t t_ns;
    int type;
    unsigned detail;
    int x, y;
  };
  std::vector<Raw> raw;
  // Set when the server says the context is enabled (XRecordStartOfData): events before that are
  // not recorded, so start() waits for it.
  bool started = false;
  bool ended = false;
  std::condition_variable started_cv;

  static void on_data(XPointer self, XRecordInterceptData* d) {
    auto* s = reinterpret_cast<State*>(self);
    if (d->category == XRecordStartOfData) {
      std::lock_guard lock(s->mutex);
      s->started = true;
      s->started_cv.notify_all();
    } else if (d->category == XRecordFromServer && d->data_len * 4 >= sizeof(xEvent)) {
      const auto* ev = reinterpret_cast<const xEvent*>(d->data);
      const int type = ev->u.u.type & 0x7f;
      std::lock_guard lock(s->mutex);
      s->raw.push_back({monotonic_ns(), type, ev->u.u.detail, ev->u.keyButtonPointer.rootX, ev->u.keyButtonPointer.rootY});
    }
    XRecordFreeData(d);
  }
};

std::unique_ptr<HumanRecorder> HumanRecorder::start(const std::string& display) {
  auto s = std::make_unique<State>();
  s->control = XOpenDisplay(display.c_str());
  s->data = XOpenDisplay(display.c_str());
  if (!s->control || !s->data) {
    if (s->control) XCloseDisplay(s->control);
    if (s->data) XCloseDisplay(s->data);
    throw RunError("human driver: cannot open display '" + display + "'");
  }
  int major = 0, minor = 0;
  if (!XRecordQueryVersion(s->control, &major, &minor)) {
    XCloseDisplay(s->control);
    XCloseDisplay(s->data);
    throw RunError("human driver: display '" + display + "' has no RECORD extension");
  }
  XRecordRange* range = XRecordAllocRange();
  range->device_events.first = KeyPress;
  range->device_events.last = MotionNotify;
  XRecordClientSpec clients = XRecordAllClients;
  s->context = XRecordCreateContext(s->control, 0, &clients, 1, &range, 1);
  XFree(range);
  if (!s->context) {
    XCloseDisplay(s->control);
    XCloseDisplay(s->data);
    throw RunError("human driver: cannot create a RECORD context on '" + display + "'");
  }
  XSync(s->control, False);
  State* raw = s.get();
  // XRecordEnableContext blocks, delivering events, until the context is disabled.
  s->thread = std::thread([raw] {
    XRecordEnableContext(raw->data, raw->context, State::on_data, reinterpret_cast<XPointer>(raw));
    std::lock_guard lock(raw->mutex);
    raw->ended = true;
    raw->started_cv.notify_all();
  });
  bool enabled = false;
  {
    std::unique_lock lock(s->mutex);
    enabled = s->started_cv.wait_for(lock, std::chrono::seconds(5), [&] { return s->started || s->ended; }) && s->started;
  }
  auto recorder = std::unique_ptr<HumanRecorder>(new HumanRecorder(std::move(s)));
  if (!enabled) throw RunError("human driver: the RECORD context on '" + display + "' did not start within 5 s");
  return recorder;
}

HumanRecorder::HumanRecorder(std::unique_ptr<State> state) : state_(std::move(state)) {}

HumanRecorder::~HumanRecorder() {
  XRecordDisableContext(state_->control, state_->context);
  XSync(state_->control, False);
  if (state_->thread.joinable()) state_->thread.join();
  XRecordFreeContext(state_->control, state_->context);
  XCloseDisplay(state_->data);
  XCloseDisplay(state_->control);
}

std::vector<RecInput> HumanRecorder::take() {
  std::vector<State::Raw> raw;
  {
    std::lock_guard lock(state_->mutex);
    raw.swap(state_->raw);
  }
  std::vector<RecInput> out;
  for (const auto& r : raw) {
    drivers::Input in;
    switch (r.type) {
      case KeyPress:
      case KeyRelease:
        in.kind = r.type == KeyPress ? drivers::InputKind::key_press : drivers::InputKind::key_release;
        in.code = static_cast<unsigned>(XkbKeycodeToKeysym(state_->control, static_cast<KeyCode>(r.detail), 0, 0));
        break;
      case ButtonPress:
      case ButtonRelease:
        in.kind = r.type == ButtonPress ? drivers::InputKind::button_press : drivers::InputKind::button_release;
        in.code = r.detail;
        in.x = r.x;
        in.y = r.y;
        break;
      case MotionNotify:
        in.kind = drivers::InputKind::pointer_motion;
        in.x = r.x;
        in.y = r.y;
        break;
      default:
        continue;
    }
    out.push_back({r.t_ns, in});
  }
  return out;
}

HumanDriver::HumanDriver(std::string display) : display_(std::move(display)), named_(!display_.empty()) {}

void HumanDriver::attach(const drivers::SessionContext& session) {
  if (named_) return;
  if (!session.rfb_port)
    throw UsageError("driver 'human': the " + session.adapter +
                     " adapter's display is a private Xvfb nobody can see; use --adapter xvnc and a VNC viewer, "
                     "or human:display=:N for a display a person plays on");
  display_ = session.display;
  // Started here, not on the first step: a person may act before the client sees a frame.
  recorder_ = HumanRecorder::start(display_);
}

drivers::Step HumanDriver::step(const drivers::ClientView& view) {
  // A named display is started on the first step: it exists by then.
  if (!recorder_) recorder_ = HumanRecorder::start(display_);
  drivers::Step s;
  s.next_ns = view.now_ns + 50'000'000;
  return s;
}

void HumanDriver::detach() {
  if (!recorder_) return;
  for (auto& r : recorder_->take()) remaining_.push_back(r);
  recorder_.reset();
}

std::vector<RecInput> HumanDriver::take() {
  std::vector<RecInput> out;
  out.swap(remaining_);
  if (recorder_)
    for (auto& r : recorder_->take()) out.push_back(r);
  return out;
}

}  // namespace pictor::ic
