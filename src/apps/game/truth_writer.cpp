#include "apps/game/truth_writer.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/files.h"

namespace pictor::game {

namespace fs = std::filesystem;

namespace {

double round_to(double v, double unit) { return std::round(v / unit) * unit; }

// Whole or absent (core/files.h): a label file cut by a full disk would train on half a frame.
void write_file(const fs::path& path, const std::string& text) { files::write_file(path, text, {.sync = false}); }

}  // namespace

TruthWriter::TruthWriter(std::string dir, std::vector<std::string> classes, int width, int height, int every,
                         bool images)
    : dir_(std::move(dir)), classes_(std::move(classes)), width_(width), height_(height),
      every_(every < 1 ? 1 : every), images_(images) {
  std::error_code ec;
  fs::create_directories(fs::path(dir_) / "labels", ec);
  if (!ec && images_) fs::create_directories(fs::path(dir_) / "images", ec);
  if (ec) throw RunError("cannot create ground-truth directory '" + dir_ + "': " + ec.message());
  std::string names;
  for (const auto& c : classes_) names += c + "\n";
  write_file(fs::path(dir_) / "classes.txt", names);
}

std::string TruthWriter::frame_name(std::int64_t frame) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "frame_%06lld", static_cast<long long>(frame));
  return buf;
}

void TruthWriter::write_frame(std::int64_t frame, const std::vector<LabelledBox>& boxes) {
  const std::string name = frame_name(frame);
  std::string yolo;
  const double w = width_, h = height_;
  for (const auto& b : boxes) {
    char line[128];
    std::snprintf(line, sizeof line, "%d %.6f %.6f %.6f %.6f\n", b.class_id,
                  (b.box.x0 + b.box.x1) / 2.0 / w, (b.box.y0 + b.box.y1) / 2.0 / h, b.box.width() / w,
                  b.box.height() / h);
    yolo += line;
    const double bw = round_to(b.box.width(), 0.01), bh = round_to(b.box.height(), 0.01);
    annotations_.push_back({{"id", next_annotation_++},
                            {"image_id", frame},
                            {"category_id", b.class_id + 1},
                            {"bbox", {round_to(b.box.x0, 0.01), round_to(b.box.y0, 0.01), bw, bh}},
                            {"area", round_to(bw * bh, 0.01)},
                            {"iscrowd", 0}});
  }
  write_file(fs::path(dir_) / "labels" / (name + ".txt"), yolo);
  images_json_.push_back({{"id", frame},
                          {"file_name", "images/" + name + ".ppm"},
                          {"width", width_},
                          {"height", height_},
                          {"frame", frame}});
}

void TruthWriter::write_image(std::int64_t frame, const std::vector<unsigned char>& rgb) {
  const std::size_t row = static_cast<std::size_t>(width_) * 3;
  if (rgb.size() < row * static_cast<std::size_t>(height_)) return;
  std::string ppm = "P6\n" + std::to_string(width_) + " " + std::to_string(height_) + "\n255\n";
  ppm.reserve(ppm.size() + rgb.size());
  // GL rows run bottom-up; image files top-down.
  for (int y = height_ - 1; y >= 0; --y)
    ppm.append(reinterpret_cast<const char*>(rgb.data()) + static_cast<std::size_t>(y) * row, row);
  write_file(fs::path(dir_) / "images" / (frame_name(frame) + ".ppm"), ppm);
}

void TruthWriter::finish() {
  if (finished_) return;
  finished_ = true;
  nlohmann::json categories = nlohmann::json::array();
  for (std::size_t i = 0; i < classes_.size(); ++i)
    categories.push_back({{"id", i + 1}, {"name", classes_[i]}, {"supercategory", "game"}});
  const nlohmann::json coco{{"info", {{"description", "Pictor built-in game ground truth"},
                                      {"version", "1"},
                                      {"images_written", images_}}},
                            {"images", images_json_},
                            {"annotations", annotations_},
                            {"categories", categories}};
  write_file(fs::path(dir_) / "coco.json", coco.dump() + "\n");
}

}  // namespace pictor::game
