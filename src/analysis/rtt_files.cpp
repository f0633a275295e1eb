// The session files of input tracking: reading client_inputs.csv, client_frames.csv,
// inputs_read.csv, frames.csv, client_updates.csv, proxy_events.csv, the stream adapter's
// stream_frames.csv and stream_received.csv, and hook.json into an RttTimeline, writing inputs.csv.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "analysis/csv.h"
#include "analysis/rtt.h"
#include "analysis/rtt_load.h"
#include "analysis/session_schema.h"
#include "analysis/stream_stages.h"
#include "core/error.h"
#include "core/files.h"
#include "core/text.h"

namespace pictor::analysis {

namespace {

namespace fs = std::filesystem;

bool is_comment(const CsvRow& row) {
  return !row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#';
}

// Checks "# pictor NAME schema N" against the newest schema this reader knows.
void check_schema(const CsvRow& row, const std::string& path, std::string_view name, int newest) {
  const std::string prefix = fmt::format("# pictor {} schema", name);
  const std::string folded = fold(row.fields[0]);
  if (folded.rfind(prefix, 0) != 0) return;
  int schema = 0;
  try {
    schema = std::stoi(folded.substr(prefix.size()));
  } catch (const std::exception&) {
    fail_at(path, row.line, fmt::format("unreadable schema line '{}'", quote_for_error(row.fields[0], 60)));
  }
  if (schema > newest) {
    fail_at(path, row.line, fmt::format("{} schema {} is newer than this Pictor reads ({})", name,
                                        schema, newest));
  }
}

// A CSV file whose first line is its header row (schema declared in the JSON beside it), or,
// written by older versions, with a "# pictor NAME schema N" line before it; rows() skips comments.
struct Table {
  std::string path;
  std::string text;
  CsvReader reader;
  std::optional<CsvHeader> header;

  Table(std::string p, std::string file_text, const DeclaredSchemas& schemas, std::string_view name, int newest_schema)
      : path(std::move(p)), text(std::move(file_text)), reader(text, path) {
    schemas.check(path, name, newest_schema);
    CsvRow row;
    while (reader.next(row)) {
      if (is_comment(row)) {
        check_schema(row, path, name, newest_schema);
        continue;
      }
      header.emplace(row, path);
      return;
    }
    fail_at(path, 1, "no header row");
  }

  // The next data row that has the header's width (a row cut off at the end is noted, not used).
  bool next(CsvRow& row, std::vector<std::string>& notes) {
    while (reader.next(row)) {
      if (is_comment(row)) continue;
      if (check_row_width(row, *header, notes)) return true;
    }
    return false;
  }
};

std::optional<std::uint64_t> optional_tag(const CsvRow& row, const CsvHeader& h, std::size_t c) {
  if (row.fields[c].empty()) return std::nullopt;
  const std::int64_t v = field_int64(row, h, c);
  if (v < 0) fail_at(h.path(), row.line, fmt::format("column '{}': negative value {}", h.name(c), v));
  return static_cast<std::uint64_t>(v);
}

std::uint64_t required_tag(const CsvRow& row, const CsvHeader& h, std::size_t c) {
  const auto v = optional_tag(row, h, c);
  if (!v) fail_at(h.path(), row.line, fmt::format("column '{}' is empty", h.name(c)));
  return *v;
}

std::string kind_field(const CsvRow& row, const CsvHeader& h, std::size_t c) {
  const std::string& k = row.fields[c];
  if (k != "key_press" && k != "key_release" && k != "button_press" && k != "button_release") {
    fail_at(h.path(), row.line,
            fmt::format("column '{}': unknown input kind '{}' (expected key_press, key_release, "
                        "button_press or button_release)",
                        h.name(c), quote_for_error(k, 40)));
  }
  return k;
}

void load_sent(Table& tab, RttTimeline& t) {
  const CsvHeader& h = *tab.header;
  const auto c_tag = h.require("tag"), c_kind = h.require("kind"), c_detail = h.require("detail"),
             c_sent = h.require("sent_ns");
  CsvRow row;
  while (tab.next(row, t.notes)) {
    SentInput s;
    s.tag = required_tag(row, h, c_tag);
    s.kind = kind_field(row, h, c_kind);
    s.detail = field_int64(row, h, c_detail);
    s.sent_ns = field_int64(row, h, c_sent);
    // The client numbers its inputs 1, 2, 3...: anything else means a damaged or foreign file.
    const std::uint64_t expected = t.sent.empty() ? 1 : t.sent.back().tag + 1;
    if (s.tag != expected) {
      fail_at(tab.path, row.line, fmt::format("tag {} where {} was expected (tags count 1, 2, 3...)",
                                              s.tag, expected));
    }
    if (!t.sent.empty() && s.sent_ns < t.sent.back().sent_ns)
      fail_at(tab.path, row.line, "sent_ns earlier than the previous row's");
    t.sent.push_back(std::move(s));
  }
}

void load_reads(Table& tab, RttTimeline& t) {
  const CsvHeader& h = *tab.header;
  const auto c_tag = h.require("tag"), c_kind = h.require("kind"), c_detail = h.require("detail"),
             c_read = h.require("read_ns");
  CsvRow row;
  while (tab.next(row, t.notes)) {
    ReadInput r;
    r.tag = required_tag(row, h, c_tag);
    r.kind = kind_field(row, h, c_kind);
    r.detail = field_int64(row, h, c_detail);
    r.read_ns = field_int64(row, h, c_read);
    if (!t.reads.empty() && r.tag <= t.reads.back().tag)
      fail_at(tab.path, row.line, fmt::format("tag {} does not follow tag {}", r.tag, t.reads.back().tag));
    t.reads.push_back(std::move(r));
  }
  t.have_reads = true;
}

void load_frames(Table& tab, RttTimeline& t) {
  const CsvHeader& h = *tab.header;
  const auto c_frame = h.require("frame"), c_swap = h.require("swap_ns");
  const auto c_ctx = h.find("ctx"), c_gpu = h.find("gpu_ms"), c_call = h.find("swap_call_ms"), c_fc = h.find("fc_ms");
  const auto c_tag = h.find("tag");
  if (!c_tag) {
    t.notes.push_back(tab.path + " has no tag column (an interposer without input tracking): "
                      "response frames, AL, RD and AS unknown");
  }
  std::vector<std::string> order;
  std::map<std::string, std::vector<AppFrame>> by_ctx;
  CsvRow row;
  while (tab.next(row, t.notes)) {
    AppFrame f;
    f.frame = required_tag(row, h, c_frame);
    f.swap_ns = field_int64(row, h, c_swap);
    if (c_gpu) f.gpu_ms = field_optional_double(row, h, *c_gpu).value_or(f.gpu_ms);
    if (c_call) f.swap_call_ms = field_optional_double(row, h, *c_call).value_or(f.swap_call_ms);
    if (c_fc) f.fc_ms = field_optional_double(row, h, *c_fc).value_or(f.fc_ms);
    if (c_tag) f.tag = optional_tag(row, h, *c_tag).value_or(0);  // empty before the first read
    const std::string ctx = c_ctx ? row.fields[*c_ctx] : "";
    auto [it, added] = by_ctx.try_emplace(ctx);
    if (added) order.push_back(ctx);
    if (!it->second.empty() && (f.frame <= it->second.back().frame || f.tag < it->second.back().tag))
      fail_at(tab.path, row.line, "frame or tag goes backwards within its context");
    it->second.push_back(f);
  }
  if (order.empty()) return;
  // The context with the most frames is the app's window, as in the frame analysis.
  const std::string* chosen = &order.front();
  for (const auto& ctx : order)
    if (by_ctx[ctx].size() > by_ctx[*chosen].size()) chosen = &ctx;
  if (order.size() > 1) {
    t.notes.push_back(fmt::format("{} GL contexts swapped; matched against context {} ({} frames)",
                                  order.size(), quote_for_error(*chosen, 40), by_ctx[*chosen].size()));
  }
  t.frames = std::move(by_ctx[*chosen]);
  t.have_frames = c_tag.has_value();
}

void load_seen(Table& tab, RttTimeline& t) {
  const CsvHeader& h = *tab.header;
  const auto c_seen = h.require("seen_ns"), c_tag = h.require("tag"), c_frame = h.require("frame"),
             c_decode = h.require("decode_us");
  const auto c_capture = h.find("capture_us");
  CsvRow row;
  while (tab.next(row, t.notes)) {
    SeenFrame c;
    c.seen_ns = field_int64(row, h, c_seen);
    c.tag = optional_tag(row, h, c_tag);
    c.frame = optional_tag(row, h, c_frame);
    c.decode_us = field_optional_double(row, h, c_decode).value_or(c.decode_us);
    if (c_capture) c.capture_us = field_optional_double(row, h, *c_capture).value_or(c.capture_us);
    if (!t.seen.empty() && c.seen_ns < t.seen.back().seen_ns)
      fail_at(tab.path, row.line, "seen_ns earlier than the previous row's");
    t.seen.push_back(c);
  }
}

void load_updates(Table& tab, RttTimeline& t) {
  const CsvHeader& h = *tab.header;
  const auto c_update = h.require("update"), c_start = h.require("start_ns"), c_end = h.require("end_ns"),
             c_rects = h.require("rects"), c_bytes = h.require("bytes");
  const auto c_x = h.find("x"), c_y = h.find("y"), c_w = h.find("w"), c_h = h.find("h"),
             c_marker = h.find("marker"), c_offset = h.find("offset");
  auto small = [&](const CsvRow& row, std::optional<std::size_t> c) {
    return c && !row.fields[*c].empty() ? static_cast<int>(field_int64(row, h, *c)) : 0;
  };
  CsvRow row;
  while (tab.next(row, t.notes)) {
    ClientUpdate u;
    u.update = required_tag(row, h, c_update);
    u.start_ns = field_int64(row, h, c_start);
    u.end_ns = field_int64(row, h, c_end);
    u.rects = static_cast<int>(field_int64(row, h, c_rects));
    u.bytes = field_int64(row, h, c_bytes);
    u.x = small(row, c_x);
    u.y = small(row, c_y);
    u.w = small(row, c_w);
    u.h = small(row, c_h);
    u.marker = small(row, c_marker) != 0;
    if (c_offset && !row.fields[*c_offset].empty()) {
      u.offset = field_int64(row, h, *c_offset);
      if (*u.offset < 0) fail_at(tab.path, row.line, "negative offset");
    }
    if (u.end_ns < u.start_ns) fail_at(tab.path, row.line, "end_ns earlier than start_ns");
    if (!t.updates.empty() && u.end_ns < t.updates.back().end_ns)
      fail_at(tab.path, row.line, "end_ns earlier than the previous row's");
    t.updates.push_back(u);
  }
  t.have_updates = true;
}

// The stream adapter's server captures and client decodes (stream_stages.h).
void load_stream_frames(Table& tab, RttTimeline& t) {
  CsvRow row;
  while (tab.next(row, t.notes)) t.stream_frames.push_back(stream_frame_of(row, *tab.header));
  t.have_stream = true;
}

void load_stream_received(Table& tab, RttTimeline& t) {
  CsvRow row;
  while (tab.next(row, t.notes)) t.stream_received.push_back(stream_received_of(row, *tab.header));
}

void load_proxy_events(Table& tab, RttTimeline& t) {
  const CsvHeader& h = *tab.header;
  const auto c_kind = h.require("kind"), c_start = h.require("start_ns"), c_end = h.require("end_ns"),
             c_fd = h.require("fd"), c_bytes = h.require("bytes"), c_input = h.require("input"),
             c_detail = h.require("detail"), c_down = h.require("down"), c_w = h.require("width"),
             c_h = h.require("height"), c_q = h.require("quality");
  const auto c_call = h.find("call");  // files before encoders other than JPEG were timed lack it
  auto opt = [&](const CsvRow& row, std::size_t c, std::int64_t unknown) {
    return row.fields[c].empty() ? unknown : field_int64(row, h, c);
  };
  auto input_kind = [&](const CsvRow& row) {
    const std::string& k = row.fields[c_input];
    if (k != "key" && k != "button")
      fail_at(tab.path, row.line,
              fmt::format("column 'input': '{}' (expected key or button)", quote_for_error(k, 40)));
    return k == "key";
  };
  ProxyEvents& p = t.proxy;
  CsvRow row;
  while (tab.next(row, t.notes)) {
    const std::string& kind = row.fields[c_kind];
    const std::int64_t start = field_int64(row, h, c_start), end = field_int64(row, h, c_end);
    if (end < start) fail_at(tab.path, row.line, "end_ns earlier than start_ns");
    const int fd = static_cast<int>(opt(row, c_fd, -1));
    if (kind == "input") {
      p.inputs.push_back({end, input_kind(row), opt(row, c_down, 1) != 0, opt(row, c_detail, 0), fd});
    } else if (kind == "deliver") {
      p.deliveries.push_back({start, end, input_kind(row), opt(row, c_down, 1) != 0, opt(row, c_detail, 0)});
    } else if (kind == "jpeg" || kind == "zlib" || kind == "lzo") {
      p.encoder_calls.push_back({start, end, opt(row, c_bytes, -1), kind, c_call ? row.fields[*c_call] : std::string(),
                                 static_cast<int>(opt(row, c_w, -1)), static_cast<int>(opt(row, c_h, -1)),
                                 static_cast<int>(opt(row, c_q, -1))});
    } else if (kind == "write") {
      p.writes.push_back({start, end, opt(row, c_bytes, 0), fd});
    } else if (kind == "cork") {
      p.corks.push_back({start, fd, opt(row, c_detail, 1) != 0});
    } else if (kind == "connect") {
      p.connections.push_back({fd, start});
    } else if (kind != "close") {
      fail_at(tab.path, row.line,
              fmt::format("column 'kind': unknown record kind '{}' (expected connect, input, deliver, jpeg, zlib, "
                          "lzo, write, cork or close)",
                          quote_for_error(kind, 40)));
    }
  }
  // Threads push in the order their calls end: restore time order where the rules need it.
  std::stable_sort(p.inputs.begin(), p.inputs.end(), [](const auto& a, const auto& b) { return a.read_ns < b.read_ns; });
  std::stable_sort(p.deliveries.begin(), p.deliveries.end(),
                   [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  t.have_proxy = true;
}

std::string ms_text(double v) { return std::isfinite(v) ? fmt::format("{:.6f}", v) : ""; }

template <typename T>
std::string opt_text(const std::optional<T>& v) {
  return v ? std::to_string(*v) : "";
}

// A two-host session: the render host's records (the app's, the proxy's, the stream server's)
// moved onto the client host's clock by the offset run.json records, so every stage is one
// clock's interval (docs/two-hosts.md). One host: nothing to do.
void apply_clock_offset(const std::string& run_text, RttTimeline& t) {
  const nlohmann::json run = nlohmann::json::parse(run_text, nullptr, false);
  if (!run.is_object() || !run.contains("two_hosts") || !run["two_hosts"].is_object()) return;
  const nlohmann::json clock = run["two_hosts"].value("clock", nlohmann::json());
  if (!clock.is_object() || !clock.value("offset_ns", nlohmann::json()).is_number_integer()) {
    t.notes.push_back("two hosts without a clock offset: stages that cross hosts are unknown-clock intervals");
    return;
  }
  const std::int64_t d = clock["offset_ns"].get<std::int64_t>();
  t.clock_offset_ns = d;
  if (clock.value("uncertainty_ns", nlohmann::json()).is_number_integer())
    t.clock_uncertainty_ns = clock["uncertainty_ns"].get<std::int64_t>();
  for (ReadInput& r : t.reads) r.read_ns -= d;
  for (AppFrame& f : t.frames) f.swap_ns -= d;
  for (ProxyInput& e : t.proxy.inputs) e.read_ns -= d;
  for (ProxyDelivery& e : t.proxy.deliveries) e.start_ns -= d, e.end_ns -= d;
  for (ProxyEncoderCall& e : t.proxy.encoder_calls) e.start_ns -= d, e.end_ns -= d;
  for (ProxyWrite& e : t.proxy.writes) e.start_ns -= d, e.end_ns -= d;
  for (ProxyCork& e : t.proxy.corks) e.ns -= d;
  for (ProxyConnection& e : t.proxy.connections) e.ns -= d;
  for (StreamFrame& f : t.stream_frames) {
    if (f.captured_ns) *f.captured_ns -= d;
    if (f.encode_in_ns) *f.encode_in_ns -= d;
    f.encode_out_ns -= d;
  }
}

}  // namespace

RttTimeline load_rtt_timeline(const SessionFileReader& read, const std::string& session_dir, bool require_client) {
  const fs::path dir(session_dir);
  std::optional<std::string> sent = read("client_inputs.csv"), seen = read("client_frames.csv");
  if (require_client && (!sent || !seen)) {
    throw UsageError((dir / (sent ? "client_frames.csv" : "client_inputs.csv")).string() +
                     ": not found (the session ran without a Pictor client)");
  }
  // run.json and proxy.json only declare schemas here: unreadable, they declare nothing.
  auto declaring = [&](const char* name) -> std::optional<std::string> {
    try {
      return read(name);
    } catch (const files::ReadError&) {
      return std::nullopt;
    }
  };
  const std::optional<std::string> run = declaring("run.json"), proxy = declaring("proxy.json"),
                                   hook = read("hook.json");
  const DeclaredSchemas schemas(run ? &*run : nullptr, hook ? &*hook : nullptr, proxy ? &*proxy : nullptr);
  RttTimeline t;
  // Each file is parsed while only its own text (and the two client files) is held.
  auto load = [&](const char* file, std::optional<std::string> text, std::string_view name, auto&& loader) {
    if (!text) return false;
    Table tab((dir / file).string(), std::move(*text), schemas, name, 1);
    loader(tab, t);
    return true;
  };
  load("client_inputs.csv", std::move(sent), "client_inputs", load_sent);
  load("client_frames.csv", std::move(seen), "client_frames", load_seen);
  load("inputs_read.csv", read("inputs_read.csv"), "inputs_read", load_reads);
  load("client_updates.csv", read("client_updates.csv"), "client_updates", load_updates);
  load("proxy_events.csv", read("proxy_events.csv"), "proxy_events", load_proxy_events);
  load("stream_frames.csv", read("stream_frames.csv"), "stream_frames", load_stream_frames);
  load("stream_received.csv", read("stream_received.csv"), "stream_received", load_stream_received);
  if (!load("frames.csv", read("frames.csv"), "frames", load_frames))
    t.notes.push_back("frames.csv absent: response frames, AL, RD and AS unknown");
  if (run) apply_clock_offset(*run, t);
  // Which renderer drew the frames: on a software one the swap call holds the rasterisation.
  if (hook) {
    try {
      const auto j = nlohmann::json::parse(*hook);
      if (j.is_object() && j.contains("gl_renderer") && j["gl_renderer"].is_string())
        t.gl_renderer = j["gl_renderer"].get<std::string>();
      if (j.is_object() && j.contains("api") && j["api"].is_string()) t.api = j["api"].get<std::string>();
    } catch (const nlohmann::json::exception&) {
      t.notes.push_back("hook.json unreadable: the GL renderer is unknown");
    }
  }
  return t;
}

RttTimeline load_rtt_timeline(const std::string& session_dir, bool require_client) {
  const fs::path dir(session_dir);
  // Every session file is read whole, so a device or a huge file is refused by name first.
  return load_rtt_timeline(
      [&](const std::string& name) -> std::optional<std::string> {
        if (!fs::exists(dir / name)) return std::nullopt;
        return files::read_input_file((dir / name).string());
      },
      session_dir, require_client);
}

void write_inputs_csv(const std::string& path, std::span<const MatchedInput> inputs) {
  std::string text =
      "tag,kind,sent_ns,read_ns,response_frame,seen_ns,rtt_ms,PS_ms,AL_ms,RD_ms,AS_ms,detail,"
      "app_tag,seen_frame,status,CS_ms,SP_ms,CP_ms,SS_ms,FC_ms,wait_app_ms,wait_later_frame_ms,"
      "wait_proxy_ms,unattributed_ms\n";
  for (const MatchedInput& m : inputs) {
    text += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", m.input.tag,
                        m.input.kind, m.input.sent_ns, opt_text(m.read_ns), opt_text(m.response_frame),
                        opt_text(m.seen_ns), ms_text(m.rtt_ms), ms_text(m.ps_ms), ms_text(m.al_ms),
                        ms_text(m.rd_ms), ms_text(m.as_ms), m.input.detail, opt_text(m.app_tag),
                        opt_text(m.seen_frame), match_status_name(m.status), ms_text(m.cs_ms),
                        ms_text(m.sp_ms), ms_text(m.cp_ms), ms_text(m.ss_ms), ms_text(m.fc_ms),
                        ms_text(m.wait_app_ms), ms_text(m.wait_later_frame_ms), ms_text(m.wait_proxy_ms),
                        ms_text(m.unattributed_ms));
  }
  files::write_file(path, text);
}

nlohmann::json match_inputs(const std::string& session_dir) {
  const RttTimeline t = load_rtt_timeline(session_dir);
  std::vector<std::string> notes = t.notes;
  const std::vector<MatchedInput> matched = match_timeline(t, &notes);
  write_inputs_csv((fs::path(session_dir) / "inputs.csv").string(), matched);
  nlohmann::json summary = rtt_summary(t, matched, std::move(notes));
  if (t.have_stream) summary["stream"] = stream_summary(session_dir, t);
  return summary;
}

}  // namespace pictor::analysis
