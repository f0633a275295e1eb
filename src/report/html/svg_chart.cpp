// The report's chart helper: ranges and ticks from the data, marks mapped to pixels, SVG text.
#include "report/html/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pictor::report::html {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kLeft = 64, kRight = 18, kTitle = 22, kBottom = 40, kLegendRow = 16;
constexpr double kFont = 11;
constexpr double kCharPx = 6.3;  // average advance of kFont text, to lay out legends and labels

std::string n1(double v) { return fmt::format("{:.1f}", v); }

struct Range {
  double lo = kNan, hi = kNan;
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::isfinite(lo) ? std::min(lo, v) : v;
    hi = std::isfinite(hi) ? std::max(hi, v) : v;
  }
};

// Maps a data value to px on one axis.
struct Scale {
  double lo, hi, px0, px1;
  bool log;
  double operator()(double v) const {
    double t;
    if (log) t = (std::log10(std::max(v, lo)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    else t = (v - lo) / (hi - lo);
    return px0 + std::clamp(t, -0.02, 1.02) * (px1 - px0);
  }
};

double nice_step(double span, int target) {
  const double raw = span / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

std::vector<double> ticks(const AxisSpec& spec, double lo, double hi, int target) {
  std::vector<double> out;
  if (!spec.categories.empty()) {
    const std::size_t n = spec.categories.size();
    const std::size_t every = std::max<std::size_t>(1, n / static_cast<std::size_t>(std::max(1, target * 2)));
    for (std::size_t i = 0; i < n; i += every) out.push_back(static_cast<double>(i));
    return out;
  }
  if (spec.log) {
    const int d0 = static_cast<int>(std::floor(std::log10(lo))), d1 = static_cast<int>(std::ceil(std::log10(hi)));
    const bool fine = d1 - d0 <= 2;
    for (int d = d0; d <= d1; ++d)
      for (double m : fine ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
        const double v = m * std::pow(10.0, d);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
      }
    return out;
  }
  const double step = nice_step(hi - lo, target);
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  return out;
}

std::string tick_text(const AxisSpec& spec, double v) {
  if (!spec.categories.empty()) {
    const auto i = static_cast<std::size_t>(std::llround(v));
    return i < spec.categories.size() ? spec.categories[i] : "";
  }
  if (spec.format) return spec.format(v);
  return fmt::format("{:g}", v);
}

// The axis range: the spec's bounds where given, else the data's, padded so marks do not touch
// the frame; categorical axes span their categories.
std::pair<double, double> axis_range(const AxisSpec& spec, Range data, bool has_bars) {
  if (!spec.categories.empty()) return {-0.5, static_cast<double>(spec.categories.size()) - 0.5};
  double lo = std::isfinite(spec.lo) ? spec.lo : data.lo, hi = std::isfinite(spec.hi) ? spec.hi : data.hi;
  if (spec.log) {
    if (!(lo > 0)) lo = hi > 0 ? hi / 10 : 1;
    if (!(hi > lo)) hi = lo * 10;
    return {lo, hi};
  }
  if (has_bars && !std::isfinite(spec.lo)) lo = std::min(lo, 0.0);
  if (!std::isfinite(lo)) lo = 0;
  if (!std::isfinite(hi) || hi <= lo) hi = lo + 1;
  if (!std::isfinite(spec.hi)) hi += (hi - lo) * 0.05;
  return {lo, hi};
}

}  // namespace

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string fmt_num(double v, int decimals) {
  if (!std::isfinite(v)) return "–";
  return fmt::format("{:.{}f}", v, decimals);
}

std::string fmt_ms(double ms) {
  if (!std::isfinite(ms)) return "–";
  const double a = std::fabs(ms);
  return fmt_num(ms, a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

std::string fmt_share(double share) { return std::isfinite(share) ? fmt::format("{:.1f} %", share * 100) : "–"; }

Chart::Chart(std::string title, int width, int height) : title_(std::move(title)), width_(width), height_(height) {}

Chart& Chart::x_axis(AxisSpec spec) {
  x_ = std::move(spec);
  return *this;
}

Chart& Chart::y_axis(AxisSpec spec) {
  y_ = std::move(spec);
  return *this;
}

void Chart::bar(double x0, double x1, double y0, double y1, const std::string& colour, const std::string& tip) {
  marks_.push_back({Kind::Rect, x0, x1, y0, y1, {}, colour, tip});
}

void Chart::stacked(const std::vector<Series>& series, bool horizontal) {
  std::vector<double> base;
  for (const Series& s : series) {
    if (base.size() < s.values.size()) base.resize(s.values.size(), 0.0);
    bool any = false;
    for (std::size_t i = 0; i < s.values.size(); ++i) {
      const double v = s.values[i];
      if (!std::isfinite(v) || v <= 0) continue;
      const double c = static_cast<double>(i);
      const std::string tip = fmt::format("{}: {}", s.name, fmt_ms(v));
      if (horizontal) bar(base[i], base[i] + v, c - 0.35, c + 0.35, s.colour, tip);
      else bar(c - 0.4, c + 0.4, base[i], base[i] + v, s.colour, tip);
      base[i] += v;
      any = true;
    }
    if (any) legend(s.name, s.colour);
  }
}

void Chart::line(const std::vector<Point>& pts, const std::string& colour, const std::string& name, bool dashed) {
  if (pts.empty()) return;
  Mark m{Kind::Line, 0, 0, 0, 0, pts, colour, name};
  m.dashed = dashed;
  marks_.push_back(std::move(m));
  if (!name.empty()) legend(name, colour);
}

void Chart::points(const std::vector<Point>& pts, const std::string& colour, const std::string& name) {
  if (pts.empty()) return;
  marks_.push_back({Kind::Dot, 0, 0, 0, 0, pts, colour, name});
  if (!name.empty()) legend(name, colour);
}

void Chart::interval(double lo, double hi, double at, double y, const std::string& colour, const std::string& tip) {
  marks_.push_back({Kind::Interval, lo, hi, at, y, {}, colour, tip});
}

void Chart::vrule(double x, const std::string& colour, const std::string& label, bool dashed) {
  Mark m{Kind::VRule, x, x, kNan, kNan, {}, colour, label};
  m.dashed = dashed;
  marks_.push_back(std::move(m));
}

void Chart::hrule(double y, const std::string& colour, const std::string& label, bool dashed) {
  Mark m{Kind::HRule, kNan, kNan, y, y, {}, colour, label};
  m.dashed = dashed;
  marks_.push_back(std::move(m));
}

void Chart::legend(const std::string& name, const std::string& colour) {
  if (std::none_of(legend_.begin(), legend_.end(), [&](const auto& e) { return e.first == name; }))
    legend_.emplace_back(name, colour);
}

std::string Chart::svg() const {
  // Legend rows under the title, wrapped to the width.
  std::vector<std::vector<std::pair<std::string, std::string>>> rows(1);
  double used = 0;
  for (const auto& e : legend_) {
    const double w = 18 + static_cast<double>(e.first.size()) * kCharPx + 14;
    if (used + w > width_ - kLeft - kRight && !rows.back().empty()) {
      rows.emplace_back();
      used = 0;
    }
    rows.back().push_back(e);
    used += w;
  }
  const double legend_h = legend_.empty() ? 0 : static_cast<double>(rows.size()) * kLegendRow + 4;
  const double top = kTitle + legend_h + 6;
  const double bottom = height_ - kBottom - (note_.empty() ? 0 : 14);
  const double left = kLeft, right = width_ - kRight;

  Range xr, yr;
  bool bars = false;
  for (const Mark& m : marks_) {
    switch (m.kind) {
      case Kind::Rect:
        xr.add(m.x0), xr.add(m.x1), yr.add(m.y0), yr.add(m.y1);
        bars = true;
        break;
      case Kind::Line:
      case Kind::Dot:
        for (const Point& p : m.pts) xr.add(p.x), yr.add(p.y);
        break;
      case Kind::VRule: xr.add(m.x0); break;
      case Kind::HRule: yr.add(m.y0); break;
      case Kind::Interval: xr.add(m.x0), xr.add(m.x1), xr.add(m.y0), yr.add(m.y1); break;
    }
  }
  const auto [xlo, xhi] = axis_range(x_, xr, bars && !y_.categories.empty());
  const auto [ylo, yhi] = axis_range(y_, yr, bars && y_.categories.empty());
  const Scale sx{xlo, xhi, left, right, x_.log};
  const Scale sy{ylo, yhi, bottom, top, y_.log};

  std::string s = fmt::format(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"{2}\" role=\"img\" aria-label=\"{3}\">\n",
      width_, height_, kFont, escape(title_));
  s += fmt::format("<text x=\"{}\" y=\"15\" font-size=\"13\" font-weight=\"bold\" fill=\"#222\">{}</text>\n", left,
                   escape(title_));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double x = left;
    const double y = kTitle + 4 + static_cast<double>(r) * kLegendRow;
    for (const auto& [name, colour] : rows[r]) {
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" fill=\"{}\"/>", n1(x), n1(y), colour);
      s += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#444\">{}</text>\n", n1(x + 16), n1(y + 9), escape(name));
      x += 18 + static_cast<double>(name.size()) * kCharPx + 14;
    }
  }
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fafbfc\" stroke=\"#d0d4da\"/>\n", left,
                   n1(top), n1(right - left), n1(bottom - top));
  // Gridlines and tick labels.
  for (const double v : ticks(y_, ylo, yhi, 5)) {
    const double y = sy(v);
    if (y_.categories.empty())
      s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e3e6ea\"/>", left, n1(y), right, n1(y));
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">{}</text>\n", left - 5, n1(y + 4),
                     escape(tick_text(y_, v)));
  }
  for (const double v : ticks(x_, xlo, xhi, std::max(2, static_cast<int>((right - left) / 90)))) {
    const double x = sx(v);
    if (x_.categories.empty())
      s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e3e6ea\"/>", n1(x), n1(top), n1(x), n1(bottom));
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n", n1(x), n1(bottom + 14),
                     escape(tick_text(x_, v)));
  }
  if (!x_.label.empty())
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n", n1((left + right) / 2),
                     n1(bottom + 30), escape(x_.label));
  if (!y_.label.empty())
    s += fmt::format("<text transform=\"translate(13 {}) rotate(-90)\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n",
                     n1((top + bottom) / 2), escape(y_.label));

  const auto tip = [](const std::string& t) { return t.empty() ? std::string() : "<title>" + escape(t) + "</title>"; };
  for (const Mark& m : marks_) {
    switch (m.kind) {
      case Kind::Rect: {
        const double x0 = sx(m.x0), x1 = sx(m.x1), y0 = sy(m.y0), y1 = sy(m.y1);
        s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">{}</rect>\n", n1(std::min(x0, x1)),
                         n1(std::min(y0, y1)), n1(std::max(0.6, std::fabs(x1 - x0))), n1(std::max(0.0, std::fabs(y1 - y0))),
                         m.colour, tip(m.tip));
        break;
      }
      case Kind::Line: {
        std::string d;
        for (const Point& p : m.pts) {
          if (!std::isfinite(p.x) || !std::isfinite(p.y) || (y_.log && p.y <= 0) || (x_.log && p.x <= 0)) continue;
          d += fmt::format("{}{},{}", d.empty() ? "M" : " L", n1(sx(p.x)), n1(sy(p.y)));
        }
        if (d.empty()) break;
        s += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.6\"{}>{}</path>\n", d, m.colour,
                         m.dashed ? " stroke-dasharray=\"4 3\"" : "", tip(m.tip));
        break;
      }
      case Kind::Dot:
        for (const Point& p : m.pts) {
          if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
          s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"2.2\" fill=\"{}\"/>", n1(sx(p.x)), n1(sy(p.y)), m.colour);
        }
        s += "\n";
        break;
      case Kind::VRule: {
        const double x = sx(m.x0);
        s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"1.3\"{4}>{5}</line>", n1(x),
                         n1(top), n1(bottom), m.colour, m.dashed ? " stroke-dasharray=\"4 3\"" : "", tip(m.tip));
        if (!m.tip.empty())
          s += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\" font-size=\"10\">{}</text>", n1(x + 3), n1(top + 11), m.colour,
                           escape(m.tip));
        s += "\n";
        break;
      }
      case Kind::HRule: {
        const double y = sy(m.y0);
        s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"1.3\"{4}>{5}</line>",
                         left, n1(y), right, m.colour, m.dashed ? " stroke-dasharray=\"4 3\"" : "", tip(m.tip));
        if (!m.tip.empty())
          s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{}\" font-size=\"10\">{}</text>", n1(right - 3),
                           n1(y - 3), m.colour, escape(m.tip));
        s += "\n";
        break;
      }
      case Kind::Interval: {
        const double y = sy(m.y1), lo = sx(m.x0), hi = sx(m.x1), at = sx(m.y0);
        s += fmt::format("<g>{}<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"3\"/>", tip(m.tip),
                         n1(lo), n1(y), n1(hi), n1(y), m.colour);
        s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/></g>\n", n1(at), n1(y), m.colour);
        break;
      }
    }
  }
  if (marks_.empty())
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#777\">no data</text>\n", n1((left + right) / 2),
                     n1((top + bottom) / 2));
  if (!note_.empty())
    s += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#666\" font-size=\"10\">{}</text>\n", left, height_ - 4, escape(note_));
  s += "</svg>\n";
  return s;
}

}  // namespace pictor::report::html
