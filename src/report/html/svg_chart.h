// The one chart helper of the HTML report: a plot in data coordinates (numeric, log or categorical
// axes; bars, stacked bars, lines, points, rules) written as inline SVG with real text and a
// <title> tooltip per mark. Every chart of report.html, compare.html and the suite report is one.
#pragma once
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace pictor::report::html {

struct AxisSpec {
  std::string label = {};
  // Range; NaN: from the data (a numeric axis of bars always includes 0 unless log).
  double lo = std::numeric_limits<double>::quiet_NaN();
  double hi = std::numeric_limits<double>::quiet_NaN();
  bool log = false;                      // base-10 ticks; values <= 0 are not drawn
  std::vector<std::string> categories = {};  // a categorical axis: category i spans [i - 0.5, i + 0.5]
  std::function<std::string(double)> format = {};  // tick text; default: shortest of {:g}
};

struct Point {
  double x = 0, y = 0;
};

struct Series {
  std::string name;
  std::string colour;          // CSS colour
  std::vector<double> values;  // one per category (stacked) or per x (lines); NaN: none
};

class Chart {
 public:
  Chart(std::string title, int width = 620, int height = 300);
  Chart& x_axis(AxisSpec spec);
  Chart& y_axis(AxisSpec spec);
  // A rectangle in data coordinates with its tooltip.
  void bar(double x0, double x1, double y0, double y1, const std::string& colour, const std::string& tip);
  // Columns per category (x categorical) or bars per category (horizontal: y categorical), each
  // series stacked on the previous ones; values NaN or <= 0 add nothing. Adds a legend entry per series.
  void stacked(const std::vector<Series>& series, bool horizontal = false);
  void line(const std::vector<Point>& points, const std::string& colour, const std::string& name, bool dashed = false);
  void points(const std::vector<Point>& points, const std::string& colour, const std::string& name);
  // A horizontal interval with a dot: the confidence intervals of compare (lo..hi at y, dot at x).
  void interval(double lo, double hi, double at, double y, const std::string& colour, const std::string& tip);
  void vrule(double x, const std::string& colour, const std::string& label, bool dashed = true);
  void hrule(double y, const std::string& colour, const std::string& label, bool dashed = true);
  void legend(const std::string& name, const std::string& colour);
  void note(std::string text) { note_ = std::move(text); }  // a line under the plot
  bool empty() const { return marks_.empty(); }

  std::string svg() const;

 private:
  enum class Kind { Rect, Line, Dot, VRule, HRule, Interval };
  struct Mark {
    Kind kind;
    double x0, x1, y0, y1;  // rect corners; a rule's position in x0 or y0; an interval lo, hi, at, y
    std::vector<Point> pts;
    std::string colour, tip;
    bool dashed = false;
  };
  std::string title_, note_;
  int width_, height_;
  AxisSpec x_, y_;
  std::vector<Mark> marks_;
  std::vector<std::pair<std::string, std::string>> legend_;
};

// Number formats shared by the report's charts and tables.
std::string fmt_ms(double ms);   // "16.7", "0.42", "1234"
std::string fmt_num(double v, int decimals);
std::string fmt_share(double share);  // 0.123 → "12.3 %"

// Escapes text for HTML and SVG content and attributes.
std::string escape(const std::string& text);

}  // namespace pictor::report::html
