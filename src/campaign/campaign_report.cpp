#include "campaign/campaign_report.h"

#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <tuple>

#include "analysis/compare.h"
#include "analysis/compare_input.h"
#include "analysis/session_data.h"
#include "campaign/campaign.h"
#include "core/error.h"
#include "report/html/html_page.h"
#include "report/html/report.h"
#include "report/html/svg_chart.h"
#include "report/scene_render.h"

namespace pictor::campaign {

namespace {

namespace fs = std::filesystem;
namespace html = report::html;

// The sessions of the ok cells that share every axis but `axis`, grouped by the value of `axis`.
// Key: (benchmark, the other axes' text); value: axis value → session dirs, in plan order.
using Groups = std::map<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>>;

Groups group_by(const std::vector<Cell>& cells, const std::string& axis) {
  Groups groups;
  for (const Cell& c : cells) {
    if (c.state != "ok" || c.session_dir.empty()) continue;
    const std::string value = axis == "adapter" ? c.adapter : c.net;
    const std::string rest = axis == "adapter" ? "net " + c.net : "adapter " + c.adapter;
    auto& values = groups[fmt::format("{} · {} · {} instance(s)", c.benchmark_name, rest, c.instances)];
    auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == value; });
    if (it == values.end()) values.push_back({value, {}}), it = values.end() - 1;
    it->second.push_back(c.session_dir);
  }
  return groups;
}

std::string unit_slug(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (keep) out += ch;
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  return out;
}

std::string figure_text(const nlohmann::json& summary, std::initializer_list<std::string_view> keys, int decimals) {
  const nlohmann::json& v = analysis::json_at(summary, keys);
  return v.is_number() ? html::fmt_num(v.get<double>(), decimals) : "–";
}

}  // namespace

nlohmann::json axis_comparisons(const std::vector<Cell>& cells) {
  nlohmann::json units = nlohmann::json::array();
  for (const std::string axis : {"adapter", "net"}) {
    for (const auto& [rest, values] : group_by(cells, axis)) {
      if (values.size() < 2) continue;
      const auto& [base, base_dirs] = values.front();
      for (std::size_t k = 1; k < values.size(); ++k) {
        const auto& [value, dirs] = values[k];
        const std::string name = fmt::format("{}: {} → {} ({})", axis, base, value, rest);
        nlohmann::json unit{{"name", unit_slug(name)}, {"title", name}, {"axis", axis}, {"a_sessions", base_dirs}, {"b_sessions", dirs}};
        // Several instances write a group directory (instance-K/ inside), which compare does not read.
        if (rest.find(" 1 instance(s)") == std::string::npos) {
          unit["note"] = "cells of several instances are compared in each group's own summary.json, not here";
        } else {
          try {
            const analysis::Comparison c = analysis::compare_unit_pair({name, {"", base_dirs}, {"", dirs}}, {});
            unit["comparison"] = analysis::comparison_json(c);
          } catch (const std::exception& e) {
            unit["note"] = e.what();
          }
        }
        units.push_back(std::move(unit));
      }
    }
  }
  return units;
}

std::string write_campaign_report(const std::string& dir) {
  const std::vector<Cell> cells = load_cells(dir);
  const nlohmann::json campaign = analysis::read_json_file((fs::path(dir) / kCampaignJson).string());
  std::vector<std::vector<std::string>> rows;
  for (const Cell& c : cells) {
    nlohmann::json summary;
    std::string link = "–";
    if (!c.session_dir.empty() && fs::exists(fs::path(c.session_dir) / "summary.json")) {
      summary = analysis::read_json_file((fs::path(c.session_dir) / "summary.json").string());
      const std::string rel = fs::relative(c.session_dir, dir).string();
      link = fmt::format("<a href=\"{}/report.html\">{}</a>", html::escape(rel), html::escape(rel));
    }
    rows.push_back({std::to_string(c.id), html::escape(c.benchmark_name), html::escape(c.adapter), html::escape(c.net),
                    std::to_string(c.instances), std::to_string(c.repeat),
                    fmt::format("<span class=\"{}\" id=\"cell-{}-state\">{}</span>", c.state == "ok" ? "better" : "worse", c.id,
                                html::escape(c.state)),
                    std::to_string(c.attempts), html::escape(c.job_id), c.exit_status ? std::to_string(*c.exit_status) : "–",
                    c.wall_s ? html::fmt_num(*c.wall_s, 1) : "–", figure_text(summary, {"fps_avg"}, 1),
                    figure_text(summary, {"frame_ms", "p99"}, 2), figure_text(summary, {"rtt_ms", "mean"}, 2),
                    c.run_id ? std::to_string(*c.run_id) : "–", link, html::escape(c.note)});
  }
  std::string body = fmt::format(
      "<header><h1>Campaign {}</h1><div class=\"meta\">{} cells · {} executor · database {} · {} → {}</div></header>\n<main>\n",
      html::escape(html::str(campaign["name"], "?")), cells.size(), html::escape(html::str(campaign["executor"], "?")),
      html::escape(html::str(campaign["db"], "?")), html::escape(html::str(campaign["start_time"], "?")),
      html::escape(html::str(campaign["end_time"], "running")));
  body += html::section("cells", "Cells",
                        html::table({"cell", "benchmark", "adapter", "net", "instances", "repeat", "state", "attempts", "job", "exit",
                                     "wall s", "FPS", "p99 frame ms", "RTT mean ms", "run id", "session", "note"},
                                    rows));
  const nlohmann::json units = axis_comparisons(cells);
  std::string notes;
  for (const auto& u : units) {
    if (u.contains("comparison")) {
      body += report::compare_unit_section(u, 95);
    } else {
      notes += "<li>" + html::escape(u["title"].get<std::string>()) + ": " + html::escape(u["note"].get<std::string>()) + "</li>";
    }
  }
  if (units.empty())
    notes += "<li>No comparison: no axis of the plan (adapters, net) has two values with ok cells that share the other axes.</li>";
  if (!notes.empty()) body += html::section("not-compared", "Not compared", "<ul>" + notes + "</ul>");
  body += html::section("method", "Statistics",
                        "<p>Each adapter is compared with the plan's first adapter, each --net setting with the first, every "
                        "other axis held. One session against one: the within-session bootstrap of pictor compare; repeats "
                        "against repeats: the across-run bootstrap (95 %, 2000 resamples, seed 20240601). See "
                        "docs/reports.md.</p>");
  body += "</main>\n";
  const nlohmann::json doc{{"schema", 1}, {"units", units}};
  report::write_text_file((fs::path(dir) / "comparisons.json").string(), doc.dump(2) + "\n");
  const std::string path = (fs::path(dir) / "report.html").string();
  report::write_text_file(path, html::document("Pictor campaign " + html::str(campaign["name"], ""), body));
  return path;
}

}  // namespace pictor::campaign
