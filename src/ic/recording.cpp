#include "ic/recording.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "analysis/csv.h"
#include "core/csv_files.h"
#include "core/error.h"
#include "core/json_read.h"
#include "core/files.h"

namespace pictor::ic {

namespace fs = std::filesystem;

namespace {

// Files written before the header row came first began with this line.
constexpr const char* kFramesComment = "# pictor rec_frames schema 1";
constexpr const char* kInputsComment = "# pictor rec_inputs schema 1";

void write_text(const std::string& path, const std::string& text) { files::write_file(path, text); }

// The one reader of a recording's CSVs (frames.csv, inputs.csv), through the project's CSV
// reader: the first line is the header row, or (older files) `comment` and then the header;
// `columns` are required in it. Each data row becomes one T: parse(row, header, c, rows so far),
// c[i] the position of columns[i]. A row cut short at the end of the file (a recorder killed
// mid-row) is left out.
template <class T, std::size_t N, class Parse>
std::vector<T> read_rec_csv(const std::string& path, std::string_view comment,
                            const std::array<std::string_view, N>& columns, Parse parse) {
  const std::string text = files::read_file(path);
  analysis::CsvReader reader(text, path);
  analysis::CsvRow row;
  if (!reader.next(row)) analysis::fail_at(path, 1, "missing header line");
  if (!row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#') {
    if (row.fields[0] != comment) analysis::fail_at(path, row.line, fmt::format("expected first line '{}'", comment));
    if (!reader.next(row)) analysis::fail_at(path, 2, "missing header line");
  }
  const analysis::CsvHeader header(row, path);
  std::array<std::size_t, N> c{};
  for (std::size_t i = 0; i < N; ++i) c[i] = header.require(columns[i]);
  std::vector<T> out;
  std::vector<std::string> notes;
  while (reader.next(row))
    if (analysis::check_row_width(row, header, notes)) out.push_back(parse(row, header, c, out));
  return out;
}

std::optional<std::uint64_t> optional_u64(const analysis::CsvRow& row, const analysis::CsvHeader& h,
                                          std::size_t col) {
  const std::string& t = row.fields[col];
  if (t.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size())
    analysis::fail_at(h.path(), row.line, fmt::format("column '{}': '{}' is not a non-negative integer", h.name(col), t));
  return v;
}

int optional_int(const analysis::CsvRow& row, const analysis::CsvHeader& h, std::size_t col) {
  const std::string& t = row.fields[col];
  if (t.empty()) return -1;
  int v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || v < 0)
    analysis::fail_at(h.path(), row.line, fmt::format("column '{}': '{}' is not a pixel position", h.name(col), t));
  return v;
}

Size get_size(const nlohmann::json& j, const char* key, const std::string& path) {
  const auto v = json_member<std::vector<int>>(j, key, path);
  if (v.size() != 2 || v[0] <= 0 || v[1] <= 0)
    throw UsageError(fmt::format("{}: '{}' must be [width, height] with positive sides", path, key));
  return {v[0], v[1]};
}

}  // namespace

nlohmann::json recording_info_json(const RecordingInfo& info) {
  return {{"schema", kRecordingSchema},
          {"game", info.game},
          {"driver", info.driver},
          {"synthetic", info.synthetic},
          {"adapter", info.adapter},
          {"net", info.net},
          {"window", {info.window.width, info.window.height}},
          {"frame_size", {info.frame_size.width, info.frame_size.height}},
          {"frames", info.frames},
          {"inputs", info.inputs},
          {"duration_s", info.duration_s},
          {"classes", info.classes},
          {"vocabulary", info.vocabulary},
          {"session", info.session},
          {"files",
           {{"frames.csv", {{"schema", csv_files::kRecFrames.schema}}},
            {"inputs.csv", {{"schema", csv_files::kRecInputs.schema}}}}}};
}

RecordingInfo parse_recording_info(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) throw UsageError(path + ": not a JSON object");
  const int schema = json_member<int>(j, "schema", path);
  if (schema != kRecordingSchema)
    throw UsageError(fmt::format("{}: schema {} is not supported (this Pictor reads schema {})", path, schema,
                                 kRecordingSchema));
  if (j.contains("files") && j["files"].is_object()) {
    for (const auto& [file, newest] : {std::pair{"frames.csv", csv_files::kRecFrames.schema},
                                       std::pair{"inputs.csv", csv_files::kRecInputs.schema}}) {
      const auto entry = j["files"].find(file);
      if (entry == j["files"].end() || !entry->is_object()) continue;
      const auto declared = entry->find("schema");
      if (declared != entry->end() && declared->is_number_integer() && declared->get<long long>() > newest)
        throw UsageError(fmt::format("{}: {} has schema {}, newer than this Pictor reads ({})", path, file,
                                     declared->get<long long>(), newest));
    }
  }
  RecordingInfo info;
  info.game = json_member<std::string>(j, "game", path);
  info.driver = json_member<std::string>(j, "driver", path);
  info.synthetic = json_member<bool>(j, "synthetic", path);
  info.adapter = json_member<std::string>(j, "adapter", path);
  info.net = json_member<std::string>(j, "net", path);
  info.window = get_size(j, "window", path);
  info.frame_size = get_size(j, "frame_size", path);
  info.frames = json_member<std::size_t>(j, "frames", path);
  info.inputs = json_member<std::size_t>(j, "inputs", path);
  info.duration_s = json_member<double>(j, "duration_s", path);
  info.classes = json_member<std::vector<std::string>>(j, "classes", path);
  info.vocabulary = json_member<std::vector<std::string>>(j, "vocabulary", path);
  info.session = json_member<std::string>(j, "session", path);
  return info;
}

void write_recording_info(const std::string& path, const RecordingInfo& info) {
  write_text(path, recording_info_json(info).dump(2) + "\n");
}

RecordingInfo read_recording_info(const std::string& path) {
  return parse_recording_info(parse_json(files::read_file(path), path), path);
}

void write_rec_frames(const std::string& path, const std::vector<RecFrame>& frames) {
  std::string out = std::string(csv_files::kRecFrames.header) + "\n";
  for (const auto& f : frames) {
    out += fmt::format("{},{},{},{},{}\n", f.index, f.seen_ns, f.app_frame ? std::to_string(*f.app_frame) : "",
                       f.tag ? std::to_string(*f.tag) : "", f.file);
  }
  write_text(path, out);
}

std::vector<RecFrame> read_rec_frames(const std::string& path) {
  enum { kIndex, kSeen, kFrame, kTag, kFile };
  return read_rec_csv<RecFrame>(
      path, kFramesComment, std::array<std::string_view, 5>{"index", "seen_ns", "app_frame", "tag", "file"},
      [&](const analysis::CsvRow& row, const analysis::CsvHeader& h, const auto& c, const std::vector<RecFrame>& frames) {
        RecFrame r;
        const std::int64_t index = analysis::field_int64(row, h, c[kIndex]);
        if (index != static_cast<std::int64_t>(frames.size()))
          analysis::fail_at(path, row.line, fmt::format("index {} out of order (expected {})", index, frames.size()));
        r.index = frames.size();
        r.seen_ns = analysis::field_int64(row, h, c[kSeen]);
        if (!frames.empty() && r.seen_ns < frames.back().seen_ns)
          analysis::fail_at(path, row.line, "seen_ns goes back in time");
        r.app_frame = optional_u64(row, h, c[kFrame]);
        r.tag = optional_u64(row, h, c[kTag]);
        r.file = row.fields[c[kFile]];
        if (r.file.empty()) analysis::fail_at(path, row.line, "column 'file' is empty");
        return r;
      });
}

void write_rec_inputs(const std::string& path, const std::vector<RecInput>& inputs) {
  std::string out = std::string(csv_files::kRecInputs.header) + "\n";
  for (const auto& r : inputs) {
    const auto& in = r.input;
    const std::string code = drivers::is_tracked(in.kind) ? drivers::input_code_name(!drivers::is_key(in.kind), in.code) : "";
    out += fmt::format("{},{},{},{},{}\n", r.t_ns, drivers::input_kind_name(in.kind), code,
                       in.x >= 0 ? std::to_string(in.x) : "", in.y >= 0 ? std::to_string(in.y) : "");
  }
  write_text(path, out);
}

std::vector<RecInput> read_rec_inputs(const std::string& path) {
  enum { kT, kKind, kCode, kX, kY };
  return read_rec_csv<RecInput>(
      path, kInputsComment, std::array<std::string_view, 5>{"t_ns", "kind", "code", "x", "y"},
      [&](const analysis::CsvRow& row, const analysis::CsvHeader& h, const auto& c, const std::vector<RecInput>& inputs) {
        RecInput r;
        r.t_ns = analysis::field_int64(row, h, c[kT]);
        if (!inputs.empty() && r.t_ns < inputs.back().t_ns) analysis::fail_at(path, row.line, "t_ns goes back in time");
        const auto kind = drivers::parse_input_kind(row.fields[c[kKind]]);
        if (!kind) analysis::fail_at(path, row.line, fmt::format("unknown input kind '{}'", row.fields[c[kKind]]));
        r.input.kind = *kind;
        const std::string& code = row.fields[c[kCode]];
        if (drivers::is_tracked(*kind)) {
          drivers::InputCode ic;
          try {
            ic = drivers::parse_input_code(code);
          } catch (const UsageError& e) {
            analysis::fail_at(path, row.line, e.what());
          }
          if (ic.button == drivers::is_key(*kind))
            analysis::fail_at(path, row.line, fmt::format("code '{}' does not fit kind '{}'", code, row.fields[c[kKind]]));
          r.input.code = ic.code;
        } else if (!code.empty()) {
          analysis::fail_at(path, row.line, "pointer_motion takes no code");
        }
        r.input.x = optional_int(row, h, c[kX]);
        r.input.y = optional_int(row, h, c[kY]);
        if ((r.input.x < 0) != (r.input.y < 0)) analysis::fail_at(path, row.line, "x and y must both be given or both empty");
        if (*kind == drivers::InputKind::pointer_motion && r.input.x < 0)
          analysis::fail_at(path, row.line, "pointer_motion needs x and y");
        return r;
      });
}

Recording read_recording(const std::string& dir) {
  Recording rec;
  rec.dir = dir;
  const fs::path d(dir);
  if (!fs::is_directory(d)) throw UsageError(dir + ": not a recording directory (not found)");
  rec.info = read_recording_info((d / "recording.json").string());
  rec.frames = read_rec_frames((d / "frames.csv").string());
  rec.inputs = read_rec_inputs((d / "inputs.csv").string());
  return rec;
}

std::string rec_frame_file(std::size_t index) { return fmt::format("frames/{:06d}.jpg", index); }
std::string rec_label_file(std::size_t index) { return fmt::format("labels/{:06d}.txt", index); }

std::vector<FrameAction> derive_frame_actions(const Recording& rec) {
  std::map<std::pair<bool, unsigned>, std::size_t> slot;
  for (std::size_t i = 0; i < rec.info.vocabulary.size(); ++i) {
    const drivers::InputCode c = drivers::parse_input_code(rec.info.vocabulary[i]);
    slot[{c.button, c.code}] = i;
  }
  const std::size_t n = rec.info.vocabulary.size();
  std::vector<FrameAction> actions;
  actions.reserve(rec.frames.size());
  std::vector<bool> down(n, false);
  int px = -1, py = -1;
  std::size_t next = 0;
  for (std::size_t i = 0; i < rec.frames.size(); ++i) {
    FrameAction a;
    a.held = down;
    a.pressed.assign(n, false);
    const int start_x = px, start_y = py;
    const bool last = i + 1 == rec.frames.size();
    const std::int64_t end = last ? 0 : rec.frames[i + 1].seen_ns;
    for (; next < rec.inputs.size() && (last || rec.inputs[next].t_ns < end); ++next) {
      const drivers::Input& in = rec.inputs[next].input;
      if (in.x >= 0) {
        px = in.x;
        py = in.y;
      }
      if (!drivers::is_tracked(in.kind)) continue;
      const auto it = slot.find({!drivers::is_key(in.kind), in.code});
      if (it == slot.end()) continue;
      const bool press = drivers::is_press(in.kind);
      down[it->second] = press;
      if (press) a.held[it->second] = a.pressed[it->second] = true;
    }
    a.moved = px != start_x || py != start_y;
    if (start_x >= 0) {
      a.dx = px - start_x;
      a.dy = py - start_y;
    }
    a.pointer_x = px;
    a.pointer_y = py;
    actions.push_back(std::move(a));
  }
  return actions;
}

}  // namespace pictor::ic
