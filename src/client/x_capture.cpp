#include "client/x_capture.h"

#include <fmt/format.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace pictor::client {

namespace {

void check_format(const XImage* image, const std::string& display) {
  // bgrx in memory: what tag::PixelFormat::bgrx expects. Anything else (16-bit, big-endian
  // servers) would need a conversion the marker decoder does not do.
  if (image->bits_per_pixel != 32 || image->byte_order != LSBFirst || image->red_mask != 0xff0000 ||
      image->green_mask != 0xff00 || image->blue_mask != 0xff) {
    throw RunError(fmt::format(
        "client: unsupported window pixel format on display '{}' (depth {}, {} bits per pixel, "
        "masks {:x}/{:x}/{:x}); the client reads 32-bit little-endian TrueColor",
        display, image->depth, image->bits_per_pixel, image->red_mask, image->green_mask,
        image->blue_mask));
  }
}

}  // namespace

XCapture::XCapture(XConnection& x, const WindowInfo& window, Region region)
    : x_(x), window_(window.id), region_(region), depth_(window.depth), visual_(window.visual) {
  Display* dpy = x.display();
  const auto w = static_cast<unsigned>(region.width), h = static_cast<unsigned>(region.height);
  shm_ = XShmQueryExtension(dpy);
  if (shm_) {
    image_ = XShmCreateImage(dpy, visual_, static_cast<unsigned>(depth_), ZPixmap, nullptr, &segment_, w, h);
    if (!image_) throw RunError("client: XShmCreateImage failed on display '" + x.name() + "'");
    try {
      check_format(image_, x.name());
    } catch (...) {
      XDestroyImage(image_);
      image_ = nullptr;
      throw;
    }
    const std::size_t bytes = static_cast<std::size_t>(image_->bytes_per_line) * h;
    segment_.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
    if (segment_.shmid < 0) {
      XDestroyImage(image_);
      image_ = nullptr;
      throw RunError(fmt::format("client: shmget of {} bytes failed: {}", bytes, std::strerror(errno)));
    }
    segment_.shmaddr = image_->data = static_cast<char*>(shmat(segment_.shmid, nullptr, 0));
    segment_.readOnly = False;
    const bool attached = segment_.shmaddr != reinterpret_cast<char*>(-1) && XShmAttach(dpy, &segment_);
    XSync(dpy, False);
    // Marked for removal now: the kernel frees it when both sides detach, even if we crash.
    shmctl(segment_.shmid, IPC_RMID, nullptr);
    const std::string err = x.take_error();
    if (!attached || !err.empty()) {
      if (segment_.shmaddr != reinterpret_cast<char*>(-1)) shmdt(segment_.shmaddr);
      image_->data = nullptr;
      XDestroyImage(image_);
      image_ = nullptr;
      throw RunError("client: cannot share memory with the X server on display '" + x.name() +
                     "'" + (err.empty() ? "" : ": " + err));
    }
    attached_ = true;
  } else {
    // No MIT-SHM (a remote display): XGetImage allocates an image per call.
    image_ = XGetImage(dpy, window_, region.x, region.y, w, h, AllPlanes, ZPixmap);
    if (!image_) {
      throw RunError("client: XGetImage of the app window failed on display '" + x.name() + "': " +
                     x.take_error());
    }
    check_format(image_, x.name());
  }
}

XCapture::~XCapture() {
  if (!image_) return;
  if (attached_) {
    if (!x_.lost()) {
      XShmDetach(x_.display(), &segment_);
      XSync(x_.display(), False);
    }
    shmdt(segment_.shmaddr);
    image_->data = nullptr;
  }
  XDestroyImage(image_);
}

bool XCapture::grab() {
  Display* dpy = x_.display();
  if (shm_) return XShmGetImage(dpy, window_, image_, region_.x, region_.y, AllPlanes) && !x_.lost();
  XImage* next = XGetImage(dpy, window_, region_.x, region_.y, static_cast<unsigned>(region_.width),
                           static_cast<unsigned>(region_.height), AllPlanes, ZPixmap);
  if (!next) return false;
  XDestroyImage(image_);
  image_ = next;
  return true;
}

tag::ImageView XCapture::view() const {
  return tag::ImageView{reinterpret_cast<const std::uint8_t*>(image_->data), image_->width,
                        image_->height, image_->bytes_per_line, tag::PixelFormat::bgrx};
}

MeanColour mean_colour(const tag::ImageView& image) {
  if (!image.pixels || image.width <= 0 || image.height <= 0 || image.format != tag::PixelFormat::bgrx ||
      image.stride < image.width * 4)
    throw UsageError("mean_colour: needs a non-empty bgrx image");
  std::uint64_t sum[3] = {0, 0, 0};
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* p = image.pixels + static_cast<std::ptrdiff_t>(y) * image.stride;
    for (int x = 0; x < image.width; ++x, p += 4) {
      sum[0] += p[2];
      sum[1] += p[1];
      sum[2] += p[0];
    }
  }
  const double n = static_cast<double>(image.width) * image.height;
  return MeanColour{static_cast<double>(sum[0]) / n, static_cast<double>(sum[1]) / n,
                    static_cast<double>(sum[2]) / n};
}

}  // namespace pictor::client
