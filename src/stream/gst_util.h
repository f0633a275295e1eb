// Two small GStreamer helpers the stream's client and server halves share: a buffer's PTS as
// the key of their probes' stamps, and an element made from its factory or a clear error.
#pragma once
#include <gst/gst.h>

#include <cstdint>
#include <fmt/format.h>
#include <string_view>

#include "core/error.h"

namespace pictor::stream {

// The buffer's PTS, or 0 when it has none (the stamps then pair it with no other frame).
inline std::uint64_t pts_of(GstBuffer* b) { return GST_BUFFER_PTS_IS_VALID(b) ? GST_BUFFER_PTS(b) : 0; }

// gst_element_factory_make, or RunError "<who>GStreamer element 'F' not found (install <packages>:
// make setup)" when the plugin that provides F is absent.
inline GstElement* make_element(const char* factory, const char* name, std::string_view who,
                                std::string_view packages) {
  GstElement* e = gst_element_factory_make(factory, name);
  if (!e) throw RunError(fmt::format("{}GStreamer element '{}' not found (install {}: make setup)", who, factory, packages));
  return e;
}

}  // namespace pictor::stream
