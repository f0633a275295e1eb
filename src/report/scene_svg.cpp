// SVG painter of the graph scene: one <rect class="frame"> per frame bar, crisp edges, real text.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <vector>

#include "core/error.h"
#include "core/files.h"
#include "report/scene_render.h"

namespace pictor::report {
namespace {

// Coordinates are whole or half pixels; print them without trailing zeros to keep large
// sessions (one rect per frame) small.
std::string num(double v) {
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string colour(const Rgb& c) {
  auto byte = [](double v) {
    return static_cast<unsigned>(std::lround(std::clamp(v, 0.0, 1.0) * 255));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(c.r), byte(c.g), byte(c.b));
}

std::string escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

const char* role_class(RectRole role) {
  switch (role) {
    case RectRole::Frame:
      return "frame";
    case RectRole::Stall:
      return "stall";
    case RectRole::Legend:
      return "legend";
    case RectRole::Panel:
      break;
  }
  return "panel";
}

const char* anchor_name(TextAnchor a) {
  switch (a) {
    case TextAnchor::Middle:
      return "middle";
    case TextAnchor::End:
      return "end";
    case TextAnchor::Start:
      break;
  }
  return "start";
}

void append_rects(std::string& out, const std::vector<SceneRect>& rects) {
  for (const SceneRect& r : rects) {
    out += fmt::format(
        "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
        role_class(r.role), num(r.x), num(r.y), num(r.width), num(r.height), colour(r.fill));
  }
}

void append_lines(std::string& out, const std::vector<SceneLine>& lines) {
  for (const SceneLine& l : lines) {
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"", num(l.x1),
                       num(l.y1), num(l.x2), num(l.y2), colour(l.stroke));
    if (l.alpha < 1.0) out += fmt::format(" stroke-opacity=\"{}\"", num(l.alpha));
    if (l.dashed) out += " stroke-dasharray=\"3 3\"";
    if (l.role == LineRole::Input) out += " class=\"input\"";
    if (l.role == LineRole::PlayStart) out += " class=\"play-start\"";
    out += "/>\n";
  }
}

}  // namespace

std::string scene_to_svg(const GraphScene& scene) {
  std::string out;
  out.reserve(256 + (scene.panels.size() + scene.rects.size()) * 72 +
              (scene.grid.size() + scene.lines.size()) * 80 + scene.texts.size() * 120);
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
      scene.width, scene.height);
  out += fmt::format("<rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"{}\"/>\n",
                     colour(scene.background));
  out += "<g shape-rendering=\"crispEdges\">\n";
  append_rects(out, scene.panels);
  out += "</g>\n<g shape-rendering=\"crispEdges\" stroke-width=\"1\">\n";
  append_lines(out, scene.grid);
  out += "</g>\n<g shape-rendering=\"crispEdges\">\n";
  append_rects(out, scene.rects);
  out += "</g>\n<g shape-rendering=\"crispEdges\" stroke-width=\"1\">\n";
  append_lines(out, scene.lines);
  out += "</g>\n<g>\n";
  for (const SceneText& t : scene.texts) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\"", num(t.x), num(t.y),
                       num(t.size_px), colour(t.fill));
    if (t.bold) out += " font-weight=\"bold\"";
    if (t.anchor != TextAnchor::Start)
      out += fmt::format(" text-anchor=\"{}\"", anchor_name(t.anchor));
    out += fmt::format(">{}</text>\n", escape(t.text));
  }
  out += "</g>\n</svg>\n";
  return out;
}

void write_text_file(const std::string& path, const std::string& text) {
  try {
    files::write_file(path, text);
  } catch (const files::WriteError& e) {
    // A path that cannot be written is the user's to fix (exit 2); a full or failing disk is not.
    if (e.disk_full() || e.error() == EIO) throw;
    throw UsageError(e.what());
  }
}

}  // namespace pictor::report
