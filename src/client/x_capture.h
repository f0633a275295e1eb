// Reads a rectangle of a window into client memory with MIT-SHM (XShmGetImage: the server copies
// straight into a shared segment, no socket transfer), or plain XGetImage where MIT-SHM is absent.
#pragma once
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>

#include <string>

#include "client/x_connection.h"
#include "tag/marker_decode.h"

namespace pictor::client {

// A rectangle in window coordinates (top-left origin).
struct Region {
  int x = 0, y = 0, width = 0, height = 0;
};

// Mean 8-bit channel values of a captured image.
struct MeanColour {
  double r = 0, g = 0, b = 0;
};

// The mean colour of a bgrx image (what XCapture gives). Without a marker this is what the
// client records per capture, so an app whose response is a colour change (the `latency` scene)
// can still be timed (client_colours.csv). Throws UsageError for an empty or non-bgrx image.
MeanColour mean_colour(const tag::ImageView& image);

class XCapture {
 public:
  // Prepares captures of `region` of `window`. Throws RunError when the window's pixels are not
  // 32-bit little-endian TrueColor with 8-bit channels (what every Xvfb/Xorg depth-24/32 visual
  // gives), or when the shared segment cannot be set up.
  XCapture(XConnection& x, const WindowInfo& window, Region region);
  ~XCapture();
  XCapture(const XCapture&) = delete;
  XCapture& operator=(const XCapture&) = delete;

  // Copies the region's current pixels; false when the server refused (window unmapped, moved
  // partly off screen) — the reason is in the connection's take_error().
  bool grab();
  // The last grab, origin at the region's top-left.
  tag::ImageView view() const;
  const Region& region() const { return region_; }
  bool shared_memory() const { return shm_; }

 private:
  XConnection& x_;
  Window window_;
  Region region_;
  XImage* image_ = nullptr;
  XShmSegmentInfo segment_{};
  bool shm_ = false;
  bool attached_ = false;
  int depth_ = 0;
  Visual* visual_ = nullptr;
};

}  // namespace pictor::client
