// Object labels per image in the two formats labelling tools exchange: YOLO (a classes.txt and
// one "class cx cy w h" text file per image) and COCO (one JSON). Import, export, conversion.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pictor::ic {

// One box, normalised to the image (0..1), centre and size: YOLO's own form.
struct LabelBox {
  int class_id = 0;  // index into LabelSet::classes
  double cx = 0, cy = 0, w = 0, h = 0;
};

struct LabelledImage {
  std::string file;    // the image's file name as the set names it ("frames/000012.jpg")
  int width = 0, height = 0;
  // nullopt: not labelled (no label file); an empty vector: labelled, no object.
  std::optional<std::vector<LabelBox>> boxes;
};

struct LabelSet {
  std::vector<std::string> classes;
  std::vector<LabelledImage> images;
};

// Parses one YOLO label file's text ("class cx cy w h" per line, blank lines ignored). Throws
// UsageError "<path>:<line>: <cause>" for a malformed line, a class outside 0..classes-1
// (classes < 0: not checked) or a coordinate outside 0..1.
std::vector<LabelBox> parse_yolo_text(const std::string& text, const std::string& path, int classes);
std::string format_yolo_text(const std::vector<LabelBox>& boxes);

// classes.txt: one name per line (trailing blank lines ignored).
std::vector<std::string> read_classes_txt(const std::string& path);
void write_classes_txt(const std::string& path, const std::vector<std::string>& classes);

// A YOLO directory as tools write it: DIR/classes.txt (or DIR/labels/classes.txt) and
// DIR/labels/STEM.txt per image (or DIR/STEM.txt when there is no labels/ folder). `images`
// lists the images to look up (file names; their stem names the label file) with their sizes;
// an image without a label file is left unlabelled. With `images` empty every label file found
// becomes an image named STEM (size 0×0: unknown).
LabelSet import_yolo_dir(const std::string& dir, const std::vector<LabelledImage>& images = {});
// Writes DIR/labels/classes.txt and DIR/labels/STEM.txt for every labelled image.
void export_yolo_dir(const std::string& dir, const LabelSet& set);

// COCO: images (id, file_name, width, height), annotations (image_id, category_id, bbox =
// [x, y, w, h] in pixels), categories (id, name). Category ids may be any integers; classes are
// the categories in ascending id order. Images without annotations are labelled with no object.
// Throws UsageError "<path>: <cause>" naming the bad entry (e.g. "annotations[3]: ...").
LabelSet parse_coco(const nlohmann::json& coco, const std::string& path);
LabelSet import_coco(const std::string& path);
// Category ids are class index + 1 (COCO's convention); unlabelled images are left out.
nlohmann::json coco_json(const LabelSet& set);
void export_coco(const std::string& path, const LabelSet& set);

}  // namespace pictor::ic
