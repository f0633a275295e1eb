// The HTML frame shared by Pictor's pages (see html_page.h).
#include "report/html/html_page.h"

#include <fmt/format.h>

#include <filesystem>

#include "report/html/svg_chart.h"

namespace pictor::report::html {

namespace {

// Nothing may be fetched: no network, no file beside the page. Links (navigation) still work.
constexpr const char* kPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

constexpr const char* kErrorRecorder = R"JS(
(function () {
  var root = document.documentElement, errors = [];
  function record(what) {
    errors.push(String(what));
    root.setAttribute('data-js-errors', String(errors.length));
    root.setAttribute('data-js-error-text', errors.join(' | ').slice(0, 4000));
  }
  root.setAttribute('data-js-errors', '0');
  window.addEventListener('error', function (e) {
    var t = e.target;
    record(e.message || ('failed to load ' + (t && (t.src || t.href || t.tagName))));
  }, true);
  window.addEventListener('unhandledrejection', function (e) { record('unhandled rejection: ' + e.reason); });
  document.addEventListener('securitypolicyviolation', function (e) { record('blocked ' + e.blockedURI); });
  var consoleError = console.error;
  console.error = function () { record(Array.prototype.join.call(arguments, ' ')); return consoleError.apply(console, arguments); };
  window.addEventListener('load', function () { root.setAttribute('data-loaded', '1'); });
})();
)JS";

constexpr const char* kStyle = R"CSS(
body { font: 14px/1.45 "DejaVu Sans", Verdana, sans-serif; color: #1d2129; margin: 0; background: #f2f4f7; }
header { background: #14161b; color: #e8eaee; padding: 18px 28px; }
header h1 { margin: 0 0 4px; font-size: 21px; }
header .meta { color: #9aa1ad; font-size: 13px; }
header .status-failed, header .status-interrupted { color: #ff8a80; font-weight: bold; }
header .status-ok { color: #9be39b; font-weight: bold; }
main { padding: 8px 28px 40px; max-width: 1340px; }
section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; margin: 16px 0; padding: 12px 18px; }
h2 { font-size: 16px; margin: 4px 0 10px; }
h3 { font-size: 14px; margin: 12px 0 6px; }
.figs { display: flex; flex-wrap: wrap; gap: 10px; }
.fig { background: #f7f8fa; border: 1px solid #e2e5ea; border-radius: 5px; padding: 8px 12px; min-width: 128px; font-size: 20px; font-weight: bold; }
.fig small { display: block; font-size: 11.5px; font-weight: normal; color: #5b6370; }
.fig .sub { display: block; font-size: 11px; font-weight: normal; color: #7a828e; }
.fig.unknown { color: #9a6a00; font-size: 15px; }
.charts { display: flex; flex-wrap: wrap; gap: 14px; }
.graph { overflow-x: auto; background: #14161b; border-radius: 4px; }
table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
th, td { border-bottom: 1px solid #e4e7eb; padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { font-size: 17px; font-weight: bold; }
.better { color: #1a7f37; font-weight: bold; }
.worse { color: #c62828; font-weight: bold; }
.nsd { color: #5b6370; }
.unknown { color: #9a6a00; }
code, .cmd { font-family: "DejaVu Sans Mono", monospace; font-size: 12.5px; background: #f3f4f6; padding: 1px 4px; border-radius: 3px; word-break: break-all; }
ul.tight { margin: 4px 0; padding-left: 20px; }
.note { color: #5b6370; font-size: 12.5px; }
)CSS";

bool needs_quotes(const std::string& w) {
  if (w.empty()) return true;
  for (const char c : w)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_./=:,+@%").find(c) != std::string_view::npos))
      return true;
  return false;
}

}  // namespace

std::string document(const std::string& title, const std::string& body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"pictor\">\n<title>{}</title>\n<script>{}</script>\n<style>{}</style>\n</head>\n"
      "<body>\n{}\n</body>\n</html>\n",
      kPolicy, escape(title), kErrorRecorder, kStyle, body);
}

std::string section(const std::string& id, const std::string& heading, const std::string& body) {
  return fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n{}\n</section>\n", escape(id), escape(heading), body);
}

std::string figure(const std::string& id, const std::string& label, const nlohmann::json& value, const std::string& text,
                   const std::string& sub, const std::string& why) {
  const bool known = value.is_number();
  std::string s = fmt::format("<div class=\"fig{}\" id=\"fig-{}\" data-value=\"{}\"{}>", known ? "" : " unknown", escape(id),
                              known ? escape(value.dump()) : "null",
                              known || why.empty() ? "" : " title=\"" + escape(why) + "\"");
  s += fmt::format("<span class=\"v\">{}</span>", known ? escape(text) : "unknown");
  s += fmt::format("<small>{}</small>", escape(label));
  if (!known && !why.empty()) s += fmt::format("<span class=\"sub\">{}</span>", escape(why));
  else if (!sub.empty()) s += fmt::format("<span class=\"sub\">{}</span>", escape(sub));
  return s + "</div>\n";
}

std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class) {
  std::string s = css_class.empty() ? "<table>\n<tr>" : "<table class=\"" + escape(css_class) + "\">\n<tr>";
  for (const std::string& h : header) s += "<th>" + h + "</th>";
  s += "</tr>\n";
  for (const auto& row : rows) {
    s += "<tr>";
    for (const std::string& c : row) s += "<td>" + c + "</td>";
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

std::string unknown_note(const std::string& what, const std::string& reason) {
  return fmt::format("<p class=\"unknown\">{}: {}</p>\n", escape(what), escape(reason));
}

std::string file_link(const std::string& dir, const std::string& name, const std::string& label) {
  const std::string text = escape(label.empty() ? name : label);
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(dir) / name, ec)) return text + " <span class=\"note\">(absent)</span>";
  return fmt::format("<a href=\"{}\">{}</a>", escape(name), text);
}

std::string str(const nlohmann::json& j, const std::string& fallback) {
  return j.is_string() ? j.get<std::string>() : j.is_null() ? fallback : j.dump();
}

std::string shell_words(const nlohmann::json& argv) {
  std::string out;
  if (!argv.is_array()) return out;
  for (const auto& a : argv) {
    const std::string w = a.is_string() ? a.get<std::string>() : a.dump();
    if (!out.empty()) out += ' ';
    if (!needs_quotes(w)) {
      out += w;
      continue;
    }
    out += '\'';
    for (const char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

}  // namespace pictor::report::html
