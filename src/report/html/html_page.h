// The frame of every HTML page Pictor writes (report.html, compare.html, a suite's and a repeated
// run's report.html): one self-contained document — inline CSS and SVG, a few lines of inline
// script that only record errors — with a Content-Security-Policy that lets it load nothing.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pictor::report::html {

// The whole document. The inline script records every error, failed load, CSP violation and
// console.error into <html data-js-errors="N" data-js-error-text="…"> and sets data-loaded="1"
// on load, so a headless browser's DOM dump shows whether the page ran clean.
std::string document(const std::string& title, const std::string& body);

// <section id=…><h2>…</h2> body </section>
std::string section(const std::string& id, const std::string& heading, const std::string& body);

// A key figure: <div class="fig" id="fig-ID" data-value="RAW">TEXT<small>LABEL</small></div>.
// `value` is the JSON number as recorded (data-value keeps its full precision); an unknown one
// shows "unknown" with `why` as its tooltip.
std::string figure(const std::string& id, const std::string& label, const nlohmann::json& value,
                   const std::string& text, const std::string& sub = "", const std::string& why = "");

// A table; cells are HTML (escape text before).
std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class = "");

// <p class="unknown">… not measured: reason</p>
std::string unknown_note(const std::string& what, const std::string& reason);

// An HTML link to a file beside the page, or its name in plain text with "(absent)".
std::string file_link(const std::string& dir, const std::string& name, const std::string& label = "");

// A JSON value as page text: a string as it is, null as `fallback`, anything else as JSON.
std::string str(const nlohmann::json& j, const std::string& fallback = "");

// A command line as a shell would take it back (single quotes where needed).
std::string shell_words(const nlohmann::json& argv);

}  // namespace pictor::report::html
