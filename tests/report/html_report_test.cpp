// The HTML pages from constructed inputs: the chart helper's SVG, escaping, a suite's page (links,
// unknown figures, intervals across runs) and compare.html's verdicts.
#include <gtest/gtest.h>

#include <cmath>

#include "report/html/html_page.h"
#include "report/html/report.h"
#include "report/html/svg_chart.h"

namespace pictor::report {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(SvgChart, DrawsOneMarkPerBarWithItsTooltipAndSkipsUnknownValues) {
  html::Chart c("FPS <per> benchmark");
  html::AxisSpec x;
  x.categories = {"a", "b", "c"};
  c.x_axis(x).y_axis(html::AxisSpec{"FPS"});
  c.stacked({{"FPS", "#123456", {60.0, std::nan(""), 30.0}}});
  const std::string svg = c.svg();
  EXPECT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 200);
  EXPECT_NE(svg.find("FPS &lt;per&gt; benchmark"), std::string::npos);
  EXPECT_EQ(count(svg, "fill=\"#123456\""), 3u) << "two bars and the legend swatch: " << svg;
  EXPECT_FALSE(c.empty());
  EXPECT_TRUE(html::Chart("nothing").empty());
}

TEST(HtmlPage, EscapesTextAndForbidsEveryLoad) {
  EXPECT_EQ(html::escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  const std::string page = html::document("t", "<p>x</p>");
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(page.find("data-js-errors"), std::string::npos);
  // An unknown figure says so with its reason, never 0.
  const std::string f = html::figure("rtt_ms-mean", "RTT", nullptr, "", "", "no inputs tracked");
  EXPECT_NE(f.find("data-value=\"null\""), std::string::npos);
  EXPECT_NE(f.find("unknown"), std::string::npos);
  EXPECT_NE(f.find("no inputs tracked"), std::string::npos);
  EXPECT_EQ(html::shell_words(nlohmann::json::array({"pictor", "run", "a b", "it's"})), "pictor run 'a b' 'it'\\''s'");
}

TEST(SuiteReport, LinksEveryBenchmarkAndShowsIntervalsAcrossRuns) {
  const nlohmann::json suite = nlohmann::json::parse(R"({
    "suite": "default", "counts": {"ok": 1, "failed": 0, "skipped": 1},
    "benchmarks": [
      {"name": "racing", "status": "ok", "session_dir": "01-racing", "fps": 61.5, "repeat": 3,
       "ci_across_runs": {"fps": [58.25, 64.75]}},
      {"name": "neverball", "status": "skipped", "session_dir": null, "fps": null,
       "reason": "'neverball' is not installed"}]})");
  const std::string html = suite_report_html(suite);
  EXPECT_NE(html.find("href=\"01-racing/report.html\""), std::string::npos);
  EXPECT_NE(html.find("61.5"), std::string::npos);
  EXPECT_NE(html.find("58.2"), std::string::npos) << "the interval across runs under the mean";
  EXPECT_NE(html.find("across runs"), std::string::npos);
  EXPECT_NE(html.find("&#39;neverball&#39; is not installed"), std::string::npos);
  EXPECT_EQ(html.find("href=\"null"), std::string::npos);
}

TEST(CompareReport, ShowsEachVerdictAndTheMethod) {
  const nlohmann::json metric_worse{{"metric", "rtt_mean"}, {"label", "RTT mean"}, {"unit", "ms"}, {"better", "lower"},
                                    {"a", 10.0}, {"b", 30.0}, {"diff", 20.0}, {"diff_ci", {18.0, 22.0}}, {"ratio", 3.0},
                                    {"ratio_ci", {2.6, 3.4}}, {"verdict", "worse"}, {"note", nullptr}, {"n_a", 40}, {"n_b", 40}};
  nlohmann::json metric_unknown = metric_worse;
  metric_unknown["metric"] = "CP";
  metric_unknown["label"] = "CP (mean)";
  for (const char* k : {"a", "b", "diff", "diff_ci", "ratio", "ratio_ci"}) metric_unknown[k] = nullptr;
  metric_unknown["verdict"] = "unknown";
  metric_unknown["note"] = "A: no input has CP_ms";
  const nlohmann::json doc{{"schema", 1}, {"level", 0.95}, {"resamples", 2000}, {"seed", 20240601},
                           {"a", {{"spec", "a"}}}, {"b", {{"spec", "b"}}}, {"unpaired", nlohmann::json::array()},
                           {"fail_if_worse", nlohmann::json::array()},
                           {"units", {{{"name", ""}, {"a_sessions", {"a"}}, {"b_sessions", {"b"}},
                                       {"comparison", {{"method", "within-session"}, {"level", 0.95}, {"resamples", 2000},
                                                       {"seed", 20240601}, {"frame_block", 30},
                                                       {"metrics", {metric_worse, metric_unknown}}}}}}}};
  const std::string html = compare_report_html(doc);
  EXPECT_NE(html.find("class=\"worse\""), std::string::npos);
  EXPECT_NE(html.find("A: no input has CP_ms"), std::string::npos);
  EXPECT_NE(html.find("95 %"), std::string::npos);
  EXPECT_NE(html.find("Within-session bootstrap"), std::string::npos);
  EXPECT_NE(html.find("id=\"verdict-rtt_mean\""), std::string::npos);
}

}  // namespace
}  // namespace pictor::report
