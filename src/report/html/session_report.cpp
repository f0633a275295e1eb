// report.html of one session: figures, verdict, charts, unknowns and what ran (docs/reports.md).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "analysis/rtt.h"
#include "core/error.h"
#include "report/html/html_page.h"
#include "report/html/report.h"
#include "report/html/session_charts.h"
#include "report/html/svg_chart.h"
#include "report/html/unknowns.h"
#include "report/scene_render.h"

namespace pictor::report {

namespace {

namespace fs = std::filesystem;
using analysis::json_at;
using analysis::json_number;
using html::escape;

using html::str;

// The key figures, each traceable to its summary.json key (its id) and with its reason when unknown.
class Figures {
 public:
  // prefix: of every figure's id, so a figure shown in two sections has an id in each.
  Figures(const nlohmann::json& summary, const std::vector<html::Unknown>& unknowns, std::string prefix = "")
      : s_(summary), u_(unknowns), prefix_(std::move(prefix)) {}

  void add(std::initializer_list<std::string_view> keys, const std::string& label, int decimals, const std::string& sub = "") {
    const nlohmann::json& v = json_at(s_, keys);
    std::string id = prefix_, path;
    for (std::string_view k : keys) {
      id += (id.size() == prefix_.size() ? "" : "-") + std::string(k);
      path += (path.empty() ? "" : ".") + std::string(k);
    }
    const std::string text = v.is_number() ? (decimals < 0 ? html::fmt_ms(v.get<double>()) : html::fmt_num(v.get<double>(), decimals)) : "";
    html_ += html::figure(id, label, v, text, sub, v.is_number() ? "" : why(path));
  }
  void raw(const std::string& h) { html_ += h; }
  std::string why(const std::string& path) const {
    for (const html::Unknown& u : u_)
      if (path == u.path || path.starts_with(u.path + ".")) return u.reason;
    return json_at(s_, {"frame_ms"}).is_null() ? "no frame figures (summary.json note)" : "not in summary.json";
  }
  std::string html() const { return "<div class=\"figs\">\n" + html_ + "</div>\n"; }

 private:
  const nlohmann::json& s_;
  const std::vector<html::Unknown>& u_;
  std::string prefix_;
  std::string html_;
};

std::string header(const analysis::SessionData& d) {
  const nlohmann::json& run = d.run;
  const std::string label = str(json_at(run, {"app", "label"}), fs::path(d.dir).filename().string());
  const std::string status = str(json_at(run, {"status"}), "unknown");
  std::string meta = fmt::format("<span class=\"status-{}\">{}</span>", escape(status), escape(status));
  for (const auto& [key, name] : {std::pair{"adapter", "adapter"}, {"driver", "driver"}, {"size", "size"}})
    if (const auto& v = json_at(run, {key}); !v.is_null()) meta += fmt::format(" · {} {}", name, escape(str(v)));
  if (const double s = json_number(run, {"duration_measured_s"}); std::isfinite(s)) meta += fmt::format(" · {:.1f} s measured", s);
  if (const auto& t = json_at(run, {"start_time"}); t.is_string()) meta += " · started " + escape(t.get<std::string>());
  std::string h = fmt::format("<header><h1>{}</h1><div class=\"meta\">{}</div>", escape(label), meta);
  if (const auto& f = json_at(run, {"failure"}); f.is_string())
    h += fmt::format("<div class=\"meta status-failed\" id=\"failure\">{}</div>", escape(f.get<std::string>()));
  if (json_at(d.summary, {"figures_from"}) == "play")
    h += "<div class=\"meta\">Figures describe play: the frames from the launcher's start of play on.</div>";
  return h + "</header>\n";
}

std::string figures_section(const analysis::SessionData& d, const std::vector<html::Unknown>& unknowns) {
  Figures f(d.summary, unknowns);
  f.add({"fps_avg"}, "FPS (server, average)", 1);
  f.add({"frame_ms", "p50"}, "p50 frame time (ms)", -1);
  f.add({"frame_ms", "p99"}, "p99 frame time (ms)", -1);
  f.add({"low_1pct_fps_percentile"}, "1 % low FPS (at p99, PresentMon)", 1);
  f.add({"low_1pct_fps_average"}, "1 % low FPS (slowest 1 %, CapFrameX)", 1);
  f.add({"low_0_1pct_fps_percentile"}, "0.1 % low FPS (at p99.9)", 1);
  f.add({"low_0_1pct_fps_average"}, "0.1 % low FPS (slowest 0.1 %)", 1);
  const double share = json_number(d.summary, {"stutter", "time_share"});
  f.add({"stutter", "count"}, "stutters", 0, std::isfinite(share) ? html::fmt_share(share) + " of the time" : "");
  const double stall_s = json_number(d.summary, {"stalls", "total_s"});
  f.add({"stalls", "count"}, "stalls (≥ 1 s without a frame)", 0, std::isfinite(stall_s) && stall_s > 0 ? fmt::format("{:.1f} s in all", stall_s) : "");
  if (d.inputs.present || !json_at(d.summary, {"rtt_ms"}).is_null()) {
    const nlohmann::json& ci = json_at(d.summary, {"rtt_ms", "ci95"});
    const std::string sub = ci.is_array() ? fmt::format("95 % CI {}–{} (bootstrap)", html::fmt_ms(ci[0].get<double>()), html::fmt_ms(ci[1].get<double>())) : "";
    f.add({"rtt_ms", "mean"}, "RTT mean (ms)", -1, sub);
    f.add({"rtt_ms", "p99"}, "RTT p99 (ms)", -1);
    f.add({"inputs", "matched"}, "inputs matched", 0, fmt::format("of {} sent", str(json_at(d.summary, {"inputs", "sent"}), "?")));
    f.add({"fps_client"}, "FPS (client)", 1);
  }
  return html::section("figures", "Key figures", f.html());
}

std::string bottleneck_section(const analysis::SessionData& d) {
  const nlohmann::json& b = json_at(d.summary, {"bottleneck"});
  if (!b.is_object()) return html::section("bottleneck", "Bottleneck", html::unknown_note("verdict", "summary.json has no bottleneck block"));
  std::string body = fmt::format("<p class=\"verdict\" id=\"bottleneck-verdict\" data-verdict=\"{}\">{}</p>\n",
                                 escape(str(b["verdict"])), escape(str(b["text"])));
  const auto list = [](const nlohmann::json& items, const char* heading) {
    if (!items.is_array() || items.empty()) return std::string();
    std::string s = fmt::format("<h3>{}</h3><ul class=\"tight\">", heading);
    for (const auto& i : items) s += "<li>" + escape(str(i)) + "</li>";
    return s + "</ul>\n";
  };
  body += list(b["evidence"], "Evidence");
  body += list(json_at(b, {"missing"}), "What would decide what is not decided");
  body += fmt::format("<p class=\"note\">Latency: {} ({}). Frame rate: {} ({}). Rules: docs/reports.md.</p>",
                      escape(str(json_at(b, {"rtt", "verdict"}))), escape(str(json_at(b, {"rtt", "text"}))),
                      escape(str(json_at(b, {"frames", "verdict"}))), escape(str(json_at(b, {"frames", "text"}))));
  return html::section("bottleneck", "Bottleneck", body);
}

std::string frametime_section(const analysis::SessionData& d) {
  std::string why;
  const std::string svg = html::frametime_graph_svg(d, why);
  std::string body = svg.empty() ? html::unknown_note("frame-time graph", why) : "<div class=\"graph\">" + svg + "</div>\n";
  body += "<p class=\"note\">Every frame is a bar: width ∝ its duration (1 px = 1/120 s), height and colour on a log₂ scale "
          "(blue 120 FPS → green 60 → yellow 30 → red 15 FPS); violet bands are stalls. Cyan ticks above a row: an input sent";
  body += d.launch.play_start_ns ? "; the white dashed line: the start of play (the figures describe play)." : ".";
  body += "</p>\n";
  return html::section("frametime", "Frame-time graph", body);
}

std::string frame_times_section(const analysis::SessionData& d) {
  std::string body = "<div class=\"charts\">" + html::frame_percentile_chart(d.figure) + html::frame_histogram_chart(d.figure) + "</div>\n";
  const nlohmann::json& fm = json_at(d.summary, {"frame_ms"});
  if (fm.is_object()) {
    std::vector<std::vector<std::string>> rows;
    for (const char* k : {"mean", "min", "p50", "p90", "p95", "p99", "p999", "max"})
      rows.push_back({k, "<span class=\"n\">" + html::fmt_ms(json_number(fm, {k})) + "</span>"});
    body += html::table({"frame time", "ms"}, rows);
  }
  return html::section("frame-times", "Frame times", body);
}

std::string stalls_section(const analysis::SessionData& d) {
  const nlohmann::json& st = json_at(d.summary, {"stalls"});
  if (!st.is_object()) return html::section("stalls", "Stalls", html::unknown_note("stalls", "not computed (a sampled log, or no frames)"));
  std::string body;
  const nlohmann::json& list = json_at(st, {"list"});
  if (!list.is_array() || list.empty()) {
    body = "<p id=\"no-stall\">No stall: no second or more without a frame";
    body += json_at(st, {"last_frame_to_end_s"}).is_number()
                ? fmt::format(" (the last frame came {:.2f} s before the end).</p>\n", json_number(st, {"last_frame_to_end_s"}))
                : ".</p>\n";
  } else {
    std::vector<std::vector<std::string>> rows;
    for (const auto& s : list)
      rows.push_back({fmt::format("{:.2f} s", json_number(s, {"start_s"})), fmt::format("{:.2f} s", json_number(s, {"duration_s"})),
                      json_at(s, {"at_end"}) == true ? "to the end of the session" : ""});
    body = html::table({"starts at", "lasts", ""}, rows);
    if (json_at(st, {"list_truncated"}) == true) body += "<p class=\"note\">List truncated; the count and total are exact.</p>";
  }
  if (const auto& n = json_at(st, {"note"}); n.is_string()) body += html::unknown_note("end of the session", n.get<std::string>());
  return html::section("stalls", "Stalls", body);
}

std::string rtt_section(const analysis::SessionData& d) {
  if (!d.inputs.present)
    return html::section("rtt", "Input latency (RTT)",
                         html::unknown_note("RTT", "no inputs tracked: run with --driver (e.g. --driver scripted) to measure it"));
  std::string body = "<div class=\"charts\">" + html::rtt_histogram_chart(d) + "</div>\n";
  body += html::stage_mean_chart(d) + html::stage_per_input_chart(d);
  std::vector<std::vector<std::string>> rows;
  const nlohmann::json& stages = json_at(d.summary, {"stages_ms"});
  const auto row = [&](const std::string& name, const nlohmann::json& s, bool in_sum) {
    const nlohmann::json& ci = json_at(s, {"ci95"});
    rows.push_back({escape(name), "<span class=\"n\">" + str(json_at(s, {"n"}), "–") + "</span>", html::fmt_ms(json_number(s, {"mean"})),
                    ci.is_array() ? html::fmt_ms(ci[0].get<double>()) + "–" + html::fmt_ms(ci[1].get<double>()) : "–",
                    html::fmt_ms(json_number(s, {"p50"})), html::fmt_ms(json_number(s, {"p99"})),
                    in_sum ? html::fmt_share(json_number(s, {"rtt_share"})) : "overlaps"});
  };
  row("RTT", json_at(d.summary, {"rtt_ms"}), false);
  rows.back().back() = "100 %";
  for (const html::StageColumn& c : html::stage_columns(d)) row(c.label, json_at(stages, {c.column}), true);
  for (const char* extra : {"RD_ms", "FC_ms"})
    if (json_at(stages, {extra}).is_object()) row(std::string(extra).substr(0, 2), json_at(stages, {extra}), false);
  body += html::table({"stage", "n", "mean ms", "95 % CI of mean", "p50", "p99", "share of RTT"}, rows);
  const nlohmann::json& in = json_at(d.summary, {"inputs"});
  body += fmt::format("<p class=\"note\">{} inputs sent, {} matched; not read by the app {}, no response frame {}, not seen by "
                      "the client {}. CIs: percentile bootstrap of the mean (2000 resamples, seed {}).</p>\n",
                      str(json_at(in, {"sent"}), "?"), str(json_at(in, {"matched"}), "?"), str(json_at(in, {"not_read"}), "?"),
                      str(json_at(in, {"no_response_frame"}), "?"), str(json_at(in, {"not_seen"}), "?"), analysis::kBootstrapSeed);
  return html::section("rtt", "Input latency (RTT) and its stages", body);
}

std::string client_section(const analysis::SessionData& d, const std::vector<std::int64_t>& seen_ns,
                           const std::vector<html::Unknown>& unknowns) {
  Figures f(d.summary, unknowns, "client-");
  f.add({"fps_avg"}, "server FPS (app swaps)", 1);
  f.add({"fps_client"}, "client FPS (distinct frames received)", 1);
  // Only the RFB client counts updates: the local client (local, display) reads the X display itself.
  const nlohmann::json& adapter = json_at(d.run, {"adapter"});
  if (!json_at(d.summary, {"fps_client_updates"}).is_null() || (adapter != "local" && adapter != "display"))
    f.add({"fps_client_updates"}, "client updates/s (RFB)", 1);
  f.add({"client_frames", "seen"}, "frames delivered", 0);
  f.add({"client_frames", "never_seen"}, "frames never seen", 0);
  f.add({"client_frames", "merges"}, "merged updates (skipped frames)", 0);
  f.add({"client_frames", "duplicates"}, "repeated captures", 0);
  std::string body = f.html();
  body += "<div class=\"charts\">" + html::fps_over_time_chart(d, seen_ns) + "</div>\n";
  if (json_at(d.summary, {"client_frames"}).is_object()) body += html::frame_fate_chart(d);
  else body += html::unknown_note("frame fate", "no client: nothing received the app's frames (run with --driver)");
  return html::section("client", "Server vs client", body);
}

std::string resources_section(const analysis::SessionData& d) {
  std::string body;
  if (!d.resources.present) body = html::unknown_note("resources", "not sampled (no resources.csv in the session)");
  else if (!d.resources.problem.empty()) body = html::unknown_note("resources", d.resources.problem);
  else body = html::resources_chart(d.resources);
  return html::section("resources", "Resources over time", body);
}

std::string unknowns_section(const analysis::SessionData& d, const std::vector<html::Unknown>& unknowns) {
  std::string body;
  if (unknowns.empty()) body = "<p>Every figure of summary.json is known.</p>\n";
  else {
    std::vector<std::vector<std::string>> rows;
    for (const html::Unknown& u : unknowns) rows.push_back({"<code>" + escape(u.path) + "</code>", escape(u.reason)});
    body = html::table({"summary.json", "why it is unknown"}, rows, "unknowns");
  }
  std::set<std::string> notes;
  for (const char* key : {"input_notes", "rtt_notes", "adapter_notes"})
    for (const auto& n : json_at(d.summary, {key}))
      if (n.is_string()) notes.insert(n.get<std::string>());
  for (const std::string& n : d.notes) notes.insert(n);
  if (!notes.empty()) {
    body += "<h3>Notes</h3><ul class=\"tight\">";
    for (const std::string& n : notes) body += "<li>" + escape(n) + "</li>";
    body += "</ul>\n";
  }
  return html::section("unknowns", "Unknowns and notes", body);
}

std::string what_ran_section(const analysis::SessionData& d) {
  const nlohmann::json& run = d.run;
  std::vector<std::vector<std::string>> rows;
  const auto add = [&](const std::string& k, const std::string& v) {
    if (!v.empty()) rows.push_back({escape(k), v});
  };
  add("command line", "<span class=\"cmd\" id=\"command-line\">" + escape(html::shell_words(json_at(run, {"command_line"}))) + "</span>");
  add("app", "<span class=\"cmd\">" + escape(html::shell_words(json_at(run, {"app", "argv"}))) + "</span>");
  for (const char* k : {"adapter", "driver", "size", "display", "pictor_version", "start_time", "end_time"})
    if (!json_at(run, {k}).is_null()) add(k, escape(str(json_at(run, {k}))));
  const nlohmann::json& m = json_at(run, {"machine"});
  if (m.is_object()) {
    const double kib = json_number(m, {"memory_kib"});
    add("machine", escape(fmt::format("{} · {} cores · {} · {} {} · {}", str(json_at(m, {"cpu_model"}), "?"), str(json_at(m, {"cores"}), "?"),
                                      std::isfinite(kib) ? fmt::format("{:.1f} GiB", kib / 1048576.0) : "memory ?",
                                      str(json_at(m, {"kernel"}), "?"), str(json_at(m, {"arch"}), ""), str(json_at(m, {"hostname"}), "?"))));
    if (const auto& l = json_at(m, {"loadavg"}); !l.is_null()) add("load average at start", escape(str(l)));
  }
  if (const auto& g = json_at(run, {"gl"}); g.is_object())
    add("GL", escape(fmt::format("{} · {} · {}", str(json_at(g, {"gl_renderer"}), "?"), str(json_at(g, {"gl_version"}), "?"),
                                 str(json_at(g, {"api"}), "?"))));
  if (const auto& net = json_at(run, {"net", "spec"}); net.is_string()) add("network emulation", escape(net.get<std::string>()));
  std::string body = html::table({"", ""}, rows);
  std::vector<std::vector<std::string>> procs;
  for (const auto& p : json_at(run, {"processes"}))
    procs.push_back({escape(str(json_at(p, {"name"}))), escape(str(json_at(p, {"pid"}))), escape(str(json_at(p, {"status"}))),
                     escape(str(json_at(p, {"ended"})))});
  if (!procs.empty()) body += "<h3>Processes</h3>" + html::table({"process", "pid", "status", "ended"}, procs);
  return html::section("run", "What ran", body);
}

std::string files_section(const analysis::SessionData& d) {
  std::string body = "<ul class=\"tight\">";
  body += "<li>" + html::file_link(d.dir, "trace.json") +
          " — Chrome trace-event JSON: open <a href=\"https://ui.perfetto.dev\">ui.perfetto.dev</a> and choose “Open trace file” "
          "(the trace stays on this machine)</li>";
  for (const char* f : {"summary.json", "run.json", "frames.csv", "inputs.csv", "client_frames.csv", "frametime.png", "resources.csv"})
    body += "<li>" + html::file_link(d.dir, f) + "</li>";
  body += "</ul>\n<p class=\"note\">Files are linked relative to this page: keep it in its session directory.</p>";
  return html::section("files", "Files", body);
}

}  // namespace

std::string session_report_html(const analysis::SessionData& d, const std::vector<std::int64_t>& seen_ns) {
  const std::vector<html::Unknown> unknowns = html::find_unknowns(d.summary, d.run);
  std::string body = header(d) + "<main>\n";
  body += figures_section(d, unknowns);
  body += bottleneck_section(d);
  body += frametime_section(d);
  body += frame_times_section(d);
  body += stalls_section(d);
  body += rtt_section(d);
  body += client_section(d, seen_ns, unknowns);
  body += resources_section(d);
  body += unknowns_section(d, unknowns);
  body += what_ran_section(d);
  body += files_section(d);
  body += "</main>\n";
  const std::string title = str(json_at(d.run, {"app", "label"}), d.dir) + " — Pictor report";
  return html::document(title, body);
}

void write_session_report(const std::string& session_dir) {
  const analysis::SessionData d = analysis::load_session_data(session_dir);
  std::vector<std::int64_t> seen;
  if (fs::exists(fs::path(session_dir) / "client_frames.csv")) {
    try {
      std::set<std::uint64_t> frames;
      for (const analysis::SeenFrame& s : analysis::load_rtt_timeline(session_dir, false).seen)
        if (s.frame && frames.insert(*s.frame).second) seen.push_back(s.seen_ns);
    } catch (const std::exception&) {
      // The chart then shows the app's frames only; the summary's figures stand as they are.
    }
  }
  write_text_file((fs::path(session_dir) / "report.html").string(), session_report_html(d, seen));
}

std::string try_write_session_report(const std::string& session_dir) {
  try {
    write_session_report(session_dir);
    return "";
  } catch (const std::exception& e) {
    return std::string("report.html not written: ") + e.what();
  }
}

}  // namespace pictor::report
