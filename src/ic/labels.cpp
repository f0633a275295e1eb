#include "ic/labels.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/json_read.h"
#include "core/files.h"

namespace pictor::ic {

namespace fs = std::filesystem;

namespace {

// Tools round to 6 decimals and some clip a hair outside: accept up to this far beyond 0..1.
constexpr double kNormSlack = 1e-3;

// Whole files through core (errors name the path and the OS's reason; writes whole or absent).

void write_text(const fs::path& path, const std::string& text) { files::write_file(path, text, {.sync = false}); }

std::vector<std::string_view> split_ws(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

double number(std::string_view t, const std::string& path, std::size_t line) {
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v))
    throw UsageError(fmt::format("{}:{}: '{}' is not a number", path, line, t));
  return v;
}

std::string stem_of(const std::string& file) { return fs::path(file).stem().string(); }

}  // namespace

std::vector<LabelBox> parse_yolo_text(const std::string& text, const std::string& path, int classes) {
  std::vector<LabelBox> boxes;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    const auto f = split_ws(line);
    if (f.empty()) continue;
    // Segmentation exports append polygon points; a box line has exactly five fields.
    if (f.size() != 5) throw UsageError(fmt::format("{}:{}: expected 'class cx cy w h', got {} fields", path, line_no, f.size()));
    int cls = 0;
    const auto [e, ec] = std::from_chars(f[0].data(), f[0].data() + f[0].size(), cls);
    if (ec != std::errc() || e != f[0].data() + f[0].size() || cls < 0 || (classes >= 0 && cls >= classes))
      throw UsageError(fmt::format("{}:{}: class '{}' is not one of 0..{}", path, line_no, f[0], classes - 1));
    LabelBox b{cls, number(f[1], path, line_no), number(f[2], path, line_no), number(f[3], path, line_no),
               number(f[4], path, line_no)};
    for (double v : {b.cx, b.cy, b.w, b.h}) {
      if (v < -kNormSlack || v > 1 + kNormSlack)
        throw UsageError(fmt::format("{}:{}: {} is outside 0..1 (YOLO coordinates are normalised)", path, line_no, v));
    }
    boxes.push_back(b);
  }
  return boxes;
}

std::string format_yolo_text(const std::vector<LabelBox>& boxes) {
  std::string out;
  for (const auto& b : boxes) out += fmt::format("{} {:.6f} {:.6f} {:.6f} {:.6f}\n", b.class_id, b.cx, b.cy, b.w, b.h);
  return out;
}

std::vector<std::string> read_classes_txt(const std::string& path) {
  const std::string text = files::read_file(path);
  std::vector<std::string> classes;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    classes.push_back(line);
  }
  while (!classes.empty() && classes.back().empty()) classes.pop_back();
  for (std::size_t i = 0; i < classes.size(); ++i)
    if (classes[i].empty()) throw UsageError(fmt::format("{}:{}: empty class name", path, i + 1));
  return classes;
}

void write_classes_txt(const std::string& path, const std::vector<std::string>& classes) {
  std::string text;
  for (const auto& c : classes) text += c + "\n";
  write_text(path, text);
}

LabelSet import_yolo_dir(const std::string& dir, const std::vector<LabelledImage>& images) {
  const fs::path d(dir);
  const fs::path labels = fs::is_directory(d / "labels") ? d / "labels" : d;
  fs::path classes_path = d / "classes.txt";
  if (!fs::exists(classes_path)) classes_path = labels / "classes.txt";
  if (!fs::exists(classes_path))
    throw UsageError(dir + ": no classes.txt (looked in " + d.string() + " and " + labels.string() + ")");
  LabelSet set;
  set.classes = read_classes_txt(classes_path.string());
  const int n = static_cast<int>(set.classes.size());
  if (!images.empty()) {
    for (const auto& img : images) {
      LabelledImage out = img;
      const fs::path p = labels / (stem_of(img.file) + ".txt");
      out.boxes = fs::exists(p) ? std::optional(parse_yolo_text(files::read_file(p.string()), p.string(), n)) : std::nullopt;
      set.images.push_back(std::move(out));
    }
    return set;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(labels))
    if (e.is_regular_file() && e.path().extension() == ".txt" && e.path().filename() != "classes.txt")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& p : files)
    set.images.push_back({p.stem().string(), 0, 0, parse_yolo_text(files::read_file(p.string()), p.string(), n)});
  return set;
}

void export_yolo_dir(const std::string& dir, const LabelSet& set) {
  const fs::path labels = fs::path(dir) / "labels";
  std::error_code ec;
  fs::create_directories(labels, ec);
  if (ec) throw RunError("cannot create " + labels.string() + ": " + ec.message());
  write_classes_txt((labels / "classes.txt").string(), set.classes);
  for (const auto& img : set.images)
    if (img.boxes) write_text(labels / (stem_of(img.file) + ".txt"), format_yolo_text(*img.boxes));
}

LabelSet parse_coco(const nlohmann::json& coco, const std::string& path) {
  auto fail = [&](const std::string& what) -> UsageError { return UsageError(path + ": " + what); };
  if (!coco.is_object()) throw fail("not a JSON object");
  for (const char* key : {"images", "annotations", "categories"})
    if (!coco.contains(key) || !coco[key].is_array()) throw fail(fmt::format("missing array '{}'", key));
  LabelSet set;
  std::map<std::int64_t, int> class_of;  // category id -> class index (ascending ids)
  try {
    std::vector<std::pair<std::int64_t, std::string>> cats;
    for (std::size_t i = 0; i < coco["categories"].size(); ++i) {
      const auto& c = coco["categories"][i];
      if (!c.contains("id") || !c.contains("name")) throw fail(fmt::format("categories[{}]: needs id and name", i));
      const std::string at = fmt::format("{}: categories[{}]", path, i);
      cats.emplace_back(json_member<std::int64_t>(c, "id", at), json_member<std::string>(c, "name", at));
    }
    std::sort(cats.begin(), cats.end());
    for (const auto& [id, name] : cats) {
      if (class_of.contains(id)) throw fail(fmt::format("category id {} given twice", id));
      class_of[id] = static_cast<int>(set.classes.size());
      set.classes.push_back(name);
    }
    std::map<std::int64_t, std::size_t> image_of;
    for (std::size_t i = 0; i < coco["images"].size(); ++i) {
      const auto& im = coco["images"][i];
      if (!im.contains("id") || !im.contains("file_name") || !im.contains("width") || !im.contains("height"))
        throw fail(fmt::format("images[{}]: needs id, file_name, width and height", i));
      const std::string at = fmt::format("{}: images[{}]", path, i);
      LabelledImage img{json_member<std::string>(im, "file_name", at), json_member<int>(im, "width", at),
                        json_member<int>(im, "height", at), std::vector<LabelBox>{}};
      if (img.width <= 0 || img.height <= 0) throw fail(fmt::format("images[{}]: width and height must be positive", i));
      if (!image_of.emplace(json_member<std::int64_t>(im, "id", at), set.images.size()).second)
        throw fail(fmt::format("images[{}]: id given twice", i));
      set.images.push_back(std::move(img));
    }
    for (std::size_t i = 0; i < coco["annotations"].size(); ++i) {
      const auto& a = coco["annotations"][i];
      if (!a.contains("image_id") || !a.contains("category_id") || !a.contains("bbox"))
        throw fail(fmt::format("annotations[{}]: needs image_id, category_id and bbox", i));
      const std::string at = fmt::format("{}: annotations[{}]", path, i);
      const auto im = image_of.find(json_member<std::int64_t>(a, "image_id", at));
      if (im == image_of.end()) throw fail(fmt::format("annotations[{}]: image_id {} names no image", i, a["image_id"].dump()));
      const auto cat = class_of.find(json_member<std::int64_t>(a, "category_id", at));
      if (cat == class_of.end())
        throw fail(fmt::format("annotations[{}]: category_id {} names no category", i, a["category_id"].dump()));
      const auto bbox = a["bbox"].get<std::vector<double>>();
      if (bbox.size() != 4 || bbox[2] < 0 || bbox[3] < 0)
        throw fail(fmt::format("annotations[{}]: bbox must be [x, y, w, h] with w, h >= 0", i));
      LabelledImage& img = set.images[im->second];
      const double W = img.width, H = img.height;
      img.boxes->push_back({cat->second, (bbox[0] + bbox[2] / 2) / W, (bbox[1] + bbox[3] / 2) / H, bbox[2] / W, bbox[3] / H});
    }
  } catch (const nlohmann::json::exception& e) {
    throw fail(std::string("wrong type: ") + e.what());
  }
  return set;
}

LabelSet import_coco(const std::string& path) {
  return parse_coco(parse_json(files::read_file(path), path), path);
}

nlohmann::json coco_json(const LabelSet& set) {
  nlohmann::json images = nlohmann::json::array(), annotations = nlohmann::json::array(),
                 categories = nlohmann::json::array();
  for (std::size_t i = 0; i < set.classes.size(); ++i)
    categories.push_back({{"id", i + 1}, {"name", set.classes[i]}, {"supercategory", "object"}});
  std::size_t next_annotation = 1;
  for (std::size_t i = 0; i < set.images.size(); ++i) {
    const auto& img = set.images[i];
    if (!img.boxes) continue;
    images.push_back({{"id", i}, {"file_name", img.file}, {"width", img.width}, {"height", img.height}});
    for (const auto& b : *img.boxes) {
      const double w = b.w * img.width, h = b.h * img.height;
      annotations.push_back({{"id", next_annotation++},
                             {"image_id", i},
                             {"category_id", b.class_id + 1},
                             {"bbox", {b.cx * img.width - w / 2, b.cy * img.height - h / 2, w, h}},
                             {"area", w * h},
                             {"iscrowd", 0}});
    }
  }
  return {{"info", {{"description", "Pictor labels"}, {"version", "1"}}},
          {"images", images},
          {"annotations", annotations},
          {"categories", categories}};
}

void export_coco(const std::string& path, const LabelSet& set) { write_text(path, coco_json(set).dump() + "\n"); }

}  // namespace pictor::ic
