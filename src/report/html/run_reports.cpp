// The pages above one session: a suite's report.html, a repeated run's report.html, compare.html.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "analysis/repeat_summary.h"
#include "analysis/session_data.h"
#include "report/html/html_page.h"
#include "report/html/report.h"
#include "report/html/svg_chart.h"
#include "report/scene_render.h"

namespace pictor::report {

namespace {

namespace fs = std::filesystem;
using analysis::json_at;
using analysis::json_number;

using html::str;

std::string n(const nlohmann::json& v, int decimals) { return v.is_number() ? html::fmt_num(v.get<double>(), decimals) : "–"; }

std::string ci_text(const nlohmann::json& ci, int decimals) {
  return ci.is_array() && ci.size() == 2 ? n(ci[0], decimals) + " … " + n(ci[1], decimals) : "–";
}

int decimals_for(const std::string& unit) { return unit == "share" ? 4 : unit == "FPS" ? 1 : 2; }

std::string machine_line(const nlohmann::json& m) {
  if (!m.is_object()) return "";
  return html::escape(fmt::format("{} · {} cores · {} · {}", str(json_at(m, {"cpu_model"}), "?"), str(json_at(m, {"cores"}), "?"),
                            str(json_at(m, {"kernel"}), "?"), str(json_at(m, {"hostname"}), "?")));
}

// A link to a session's own report.html, relative to the page above it.
std::string report_link(const std::string& sub, const std::string& text) {
  return fmt::format("<a href=\"{}/report.html\">{}</a>", html::escape(sub), html::escape(text));
}

// A repeated benchmark's interval across runs under its mean (suite.json ci_across_runs).
std::string across(const nlohmann::json& entry, const char* key, int decimals) {
  const nlohmann::json& ci = json_at(entry, {"ci_across_runs", key});
  if (!ci.is_array()) return "";
  return "<br><small class=\"ci-across-runs\">" + ci_text(ci, decimals) + " across runs</small>";
}

}  // namespace

std::string suite_report_html(const nlohmann::json& suite) {
  const nlohmann::json& counts = json_at(suite, {"counts"});
  std::string body = fmt::format("<header><h1>Suite {}{}</h1><div class=\"meta\">{} ok · {} failed · {} skipped · {} → {}</div></header>\n<main>\n",
                                 html::escape(str(suite["suite"], "?")), suite.value("quick", false) ? " (quick)" : "",
                                 str(json_at(counts, {"ok"}), "?"), str(json_at(counts, {"failed"}), "?"),
                                 str(json_at(counts, {"skipped"}), "?"), html::escape(str(json_at(suite, {"start_time"}))),
                                 html::escape(str(json_at(suite, {"end_time"}), "running")));
  std::vector<std::vector<std::string>> rows;
  html::AxisSpec cats;
  std::vector<double> fps, rtt;
  for (const auto& e : json_at(suite, {"benchmarks"})) {
    const std::string name = str(json_at(e, {"name"}), "?");
    const nlohmann::json& dir = json_at(e, {"session_dir"});
    const std::string status = str(json_at(e, {"status"}), "?");
    const std::string repeat = e.contains("repeat") ? fmt::format(" ×{}", e["repeat"].get<int>()) : "";
    rows.push_back({dir.is_string() ? report_link(dir.get<std::string>(), name) + repeat : html::escape(name),
                    fmt::format("<span class=\"{}\">{}</span>", status == "ok" ? "better" : "worse", html::escape(status)),
                    n(json_at(e, {"fps"}), 1) + across(e, "fps", 1), n(json_at(e, {"frame_ms_p50"}), 2) + across(e, "frame_ms_p50", 2),
                    n(json_at(e, {"frame_ms_p99"}), 2) + across(e, "frame_ms_p99", 2),
                    n(json_at(e, {"low_1pct_fps_percentile"}), 1) + " / " + n(json_at(e, {"low_1pct_fps_average"}), 1),
                    n(json_at(e, {"rtt_ms_mean"}), 1) + across(e, "rtt_ms_mean", 1), n(json_at(e, {"rtt_ms_p99"}), 1) + across(e, "rtt_ms_p99", 1),
                    n(json_at(e, {"rtt_inputs"}), 0),
                    html::escape(str(json_at(e, {"reason"})))});
    cats.categories.push_back(name);
    fps.push_back(json_number(e, {"fps"}));
    rtt.push_back(json_number(e, {"rtt_ms_mean"}));
  }
  std::string table = html::table({"benchmark", "status", "FPS", "p50 ms", "p99 ms", "1 % low (pct / avg)", "RTT mean ms", "RTT p99",
                                   "inputs", "note"},
                                  rows, "suite");
  html::Chart fc("FPS (server) per benchmark", 620, 280);
  fc.x_axis(cats).y_axis(html::AxisSpec{"FPS"});
  fc.stacked({{"FPS", "#1e88e5", fps}});
  html::Chart rc("RTT mean per benchmark", 620, 280);
  rc.x_axis(cats).y_axis(html::AxisSpec{"ms"});
  rc.stacked({{"RTT mean", "#5c6bc0", rtt}});
  body += html::section("benchmarks", "Benchmarks", table + "<div class=\"charts\">" + fc.svg() + rc.svg() + "</div>" +
                        "<p class=\"note\">1 % low: FPS at the 99th frame-time percentile (PresentMon) / average FPS of the "
                        "slowest 1 % (CapFrameX). Each benchmark's name links to its own report. Under a repeated benchmark's mean (×N): "
                        "the 95 % interval across its runs (the runs' figures resampled; run-to-run variance included).</p>");
  body += html::section("run", "What ran",
                        html::table({"", ""}, {{"command line", "<span class=\"cmd\">" + html::escape(html::shell_words(json_at(suite, {"command_line"}))) + "</span>"},
                                               {"machine", machine_line(json_at(suite, {"machine"}))},
                                               {"files", html::file_link(str(json_at(suite, {"dir"}), "."), "suite.json")}}));
  body += "</main>\n";
  return html::document("Suite " + str(suite["suite"], "?") + " — Pictor report", body);
}

void write_suite_report(const std::string& suite_dir, const nlohmann::json& suite) {
  write_text_file((fs::path(suite_dir) / "report.html").string(), suite_report_html(suite));
}

std::string repeat_report_html(const nlohmann::json& run, const nlohmann::json& summary) {
  const std::string label = str(json_at(run, {"app", "label"}), str(json_at(run, {"label"}), "repeated run"));
  std::string body = fmt::format("<header><h1>{} — {} runs</h1><div class=\"meta\">status {} · {}</div></header>\n<main>\n",
                                 html::escape(label), str(json_at(summary, {"runs"}), "?"), html::escape(str(json_at(run, {"status"}), "?")),
                                 html::escape(str(json_at(run, {"start_time"}))));
  const int level = static_cast<int>(std::lround(json_number(summary, {"level"}) * 100));
  std::vector<std::string> sessions;
  for (const auto& s : json_at(summary, {"sessions"})) sessions.push_back(str(s));
  std::vector<std::string> header{"figure", "mean", fmt::format("{} % CI across runs", level), "sd", "min", "max"};
  for (const std::string& s : sessions) header.push_back(report_link(s, s));
  std::vector<std::vector<std::string>> rows;
  std::string charts;
  for (const auto& f : json_at(summary, {"figures"})) {
    if (json_number(f, {"n"}) == 0) continue;
    const int d = decimals_for(str(f["unit"]));
    const std::string id = str(f["metric"]);
    std::vector<std::string> row{html::escape(str(f["label"])),
                                 fmt::format("<span id=\"repeat-{}\" data-value=\"{}\">{}</span>", html::escape(id), html::escape(f["mean"].dump()), n(f["mean"], d)),
                                 ci_text(f["ci_across_runs"], d), n(f["sd"], d), n(f["min"], d), n(f["max"], d)};
    for (const auto& v : f["values"]) row.push_back(n(v, d));
    rows.push_back(row);
    if (id == "fps" || id == "rtt_mean" || id == "frame_p99") {
      html::Chart c(str(f["label"]) + " in each run", 410, 260);
      html::AxisSpec x{"run"};
      for (const std::string& s : sessions) x.categories.push_back(s);
      c.x_axis(x).y_axis(html::AxisSpec{str(f["unit"])});
      std::vector<html::Point> pts;
      for (std::size_t k = 0; k < f["values"].size(); ++k)
        if (f["values"][k].is_number()) pts.push_back({static_cast<double>(k), f["values"][k].get<double>()});
      c.points(pts, "#1e88e5", "each run");
      if (f["mean"].is_number()) c.hrule(f["mean"].get<double>(), "#333", "mean", false);
      if (f["ci_across_runs"].is_array()) {
        c.hrule(f["ci_across_runs"][0].get<double>(), "#e53935", fmt::format("{} % CI", level));
        c.hrule(f["ci_across_runs"][1].get<double>(), "#e53935", "");
      }
      charts += c.svg();
    }
  }
  std::string body_figures = html::table(header, rows, "repeat") + "<div class=\"charts\">" + charts + "</div>";
  body_figures += fmt::format("<p class=\"note\" id=\"interval-note\">The interval here is {}. Not to be confused with {}.</p>",
                              html::escape(analysis::kAcrossRunsText), html::escape(analysis::kWithinSessionText));
  body += html::section("figures", "Figures across runs", body_figures);
  if (const auto& v = json_at(summary, {"bottleneck", "verdict"}); v.is_string())
    body += html::section("bottleneck", "Bottleneck", "<p class=\"verdict\">" + html::escape(v.get<std::string>()) + "</p>");
  body += html::section("run", "What ran",
                        html::table({"", ""}, {{"command line", "<span class=\"cmd\">" + html::escape(html::shell_words(json_at(run, {"command_line"}))) + "</span>"},
                                               {"machine", machine_line(json_at(run, {"machine"}))}}));
  body += "</main>\n";
  return html::document(label + " — Pictor repeated run", body);
}

void write_repeat_report(const std::string& dir, const nlohmann::json& run, const nlohmann::json& summary) {
  write_text_file((fs::path(dir) / "report.html").string(), repeat_report_html(run, summary));
}

std::string compare_unit_section(const nlohmann::json& u, int level) {
  const nlohmann::json& c = u["comparison"];
  std::vector<std::vector<std::string>> rows;
  html::AxisSpec cats;
  std::vector<std::tuple<double, double, double, std::string, std::string>> marks;
  for (const auto& m : c["metrics"]) {
    const std::string verdict = str(m["verdict"]);
    const std::string cls = verdict == "better" ? "better" : verdict == "worse" ? "worse" : verdict == "unknown" ? "unknown" : "nsd";
    const int d = decimals_for(str(m["unit"]));
    rows.push_back({html::escape(str(m["label"])), n(m["a"], d), n(m["b"], d),
                    n(m["diff"], d) + " <span class=\"note\">[" + ci_text(m["diff_ci"], d) + "]</span>",
                    n(m["ratio"], 3) + " <span class=\"note\">[" + ci_text(m["ratio_ci"], 3) + "]</span>",
                    fmt::format("<span class=\"{}\" id=\"verdict-{}{}\">{}</span>", cls, u["name"].get<std::string>().empty() ? "" : html::escape(u["name"].get<std::string>()) + "-",
                                html::escape(str(m["metric"])), html::escape(verdict)),
                    html::escape(str(m["note"]))});
    if (m["ratio"].is_number() && m["ratio_ci"].is_array()) {
      cats.categories.push_back(str(m["label"]));
      marks.emplace_back(m["ratio_ci"][0].get<double>() - 1, m["ratio_ci"][1].get<double>() - 1, m["ratio"].get<double>() - 1,
                         cls == "better" ? "#1a7f37" : cls == "worse" ? "#c62828" : "#78909c", str(m["label"]));
    }
  }
  std::string section_body = fmt::format("<p class=\"note\">{} — A: {} session(s), B: {} session(s).</p>",
                                         str(c["method"]) == "within-session"
                                             ? "Within-session bootstrap: each session's frames (circular blocks of " +
                                                   str(c["frame_block"]) + ") and inputs resampled; run-to-run variance is not in it"
                                             : std::string("Across-run bootstrap: the runs' figures resampled"),
                                         u["a_sessions"].size(), u["b_sessions"].size());
  section_body += html::table({"figure", "A", "B", "B − A [CI]", "B / A [CI]", "verdict", "note"}, rows, "compare");
  if (!marks.empty()) {
    html::Chart f(fmt::format("B / A − 1 with its {} % interval", level), 1240, 60 + 24 * static_cast<int>(marks.size()));
    html::AxisSpec x{"relative change (B / A − 1)"};
    x.format = [](double v) { return fmt::format("{:+.0f} %", v * 100); };
    f.x_axis(x).y_axis(cats);
    for (std::size_t k = 0; k < marks.size(); ++k) {
      const auto& [lo, hi, at, colour, label] = marks[k];
      f.interval(lo, hi, at, static_cast<double>(k), colour, fmt::format("{}: {:+.1f} % [{:+.1f} … {:+.1f}]", label, at * 100, lo * 100, hi * 100));
    }
    f.vrule(0, "#333", "", false);
    section_body += f.svg();
  }
  const std::string name = str(u["name"]);
  // A unit may carry a heading of its own (a campaign's "adapter: local → xvnc (…)"); its name stays the id.
  const std::string heading = u.contains("title") ? str(u["title"]) : name.empty() ? "Comparison" : name;
  return html::section("unit-" + (name.empty() ? std::string("session") : name), heading, section_body);
}

std::string compare_report_html(const nlohmann::json& compare) {
  const int level = static_cast<int>(std::lround(json_number(compare, {"level"}) * 100));
  std::string body = fmt::format("<header><h1>Pictor compare</h1><div class=\"meta\">A: {} · B: {} · {} % confidence</div></header>\n<main>\n",
                                 html::escape(str(json_at(compare, {"a", "spec"}))), html::escape(str(json_at(compare, {"b", "spec"}))), level);
  for (const auto& u : json_at(compare, {"units"})) body += compare_unit_section(u, level);
  if (const auto& gates = json_at(compare, {"fail_if_worse"}); gates.is_array() && !gates.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& g : gates)
      rows.push_back({html::escape(str(g["metric"])), html::escape(str(g["threshold"])), html::escape(str(g["unit"])), html::escape(str(g["result"]))});
    body += html::section("gates", "--fail-if-worse", html::table({"metric", "threshold", "unit", "result"}, rows));
  }
  body += html::section("method", "Statistics",
                        fmt::format("<p>B − A and B / A with a {} % percentile bootstrap interval ({} resamples, seed {}). A figure is "
                                    "better or worse when the interval of B − A excludes 0; otherwise there is no significant "
                                    "difference. Higher is better for FPS and the lows, lower for frame times, stutter, RTT and "
                                    "stages. See docs/reports.md.</p>",
                                    level, str(json_at(compare, {"resamples"})), str(json_at(compare, {"seed"}))));
  body += "</main>\n";
  return html::document("Pictor compare", body);
}

}  // namespace pictor::report
