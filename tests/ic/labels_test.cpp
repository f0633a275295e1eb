// Labels: import of YOLO and COCO files as other tools write them, and export → import round trips.
#include "ic/labels.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "temp_dir.h"

namespace pictor::ic {
namespace {

void expect_box(const LabelBox& b, int cls, double cx, double cy, double w, double h) {
  EXPECT_EQ(b.class_id, cls);
  EXPECT_NEAR(b.cx, cx, 1e-6);
  EXPECT_NEAR(b.cy, cy, 1e-6);
  EXPECT_NEAR(b.w, w, 1e-6);
  EXPECT_NEAR(b.h, h, 1e-6);
}

TEST(Labels, ImportsYoloDirAsToolsWriteIt) {
  // The layout of labelImg / Ultralytics exports: classes.txt beside labels/, CRLF, no final newline.
  const std::string dir = test::temp_dir("yolo_in");
  std::filesystem::create_directories(dir + "/labels");
  std::ofstream(dir + "/classes.txt") << "car\r\nperson\r\n";
  std::ofstream(dir + "/labels/img_a.txt") << "0 0.5 0.5 0.25 0.1\r\n1 0.1 0.2 0.05 0.3";
  std::ofstream(dir + "/labels/img_b.txt") << "";
  const LabelSet set = import_yolo_dir(dir, {{"images/img_a.png", 640, 480, {}},
                                             {"images/img_b.png", 640, 480, {}},
                                             {"images/img_c.png", 640, 480, {}}});
  EXPECT_EQ(set.classes, (std::vector<std::string>{"car", "person"}));
  ASSERT_EQ(set.images.size(), 3u);
  ASSERT_TRUE(set.images[0].boxes);
  ASSERT_EQ(set.images[0].boxes->size(), 2u);
  expect_box((*set.images[0].boxes)[1], 1, 0.1, 0.2, 0.05, 0.3);
  ASSERT_TRUE(set.images[1].boxes);
  EXPECT_TRUE(set.images[1].boxes->empty());  // labelled: no object
  EXPECT_FALSE(set.images[2].boxes);          // no file: not labelled
}

TEST(Labels, RejectsBadYoloLines) {
  EXPECT_THROW(parse_yolo_text("0 0.5 0.5 0.1\n", "x.txt", 2), UsageError);
  EXPECT_THROW(parse_yolo_text("2 0.5 0.5 0.1 0.1\n", "x.txt", 2), UsageError);
  try {
    parse_yolo_text("0 0.5 0.5 0.1 0.1\n\n1 120 0.5 0.1 0.1\n", "x.txt", 2);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("x.txt:3:"), std::string::npos) << e.what();
  }
}

TEST(Labels, YoloRoundTrip) {
  const std::string dir = test::temp_dir("yolo_rt");
  LabelSet set;
  set.classes = {"player", "car"};
  set.images = {{"frames/000000.jpg", 256, 144, std::vector<LabelBox>{{1, 0.25, 0.5, 0.125, 0.0625}}},
                {"frames/000001.jpg", 256, 144, std::vector<LabelBox>{}},
                {"frames/000002.jpg", 256, 144, std::nullopt}};
  export_yolo_dir(dir, set);
  auto lookup = set.images;
  for (auto& i : lookup) i.boxes.reset();
  const LabelSet back = import_yolo_dir(dir, lookup);
  EXPECT_EQ(back.classes, set.classes);
  ASSERT_EQ(back.images.size(), 3u);
  ASSERT_TRUE(back.images[0].boxes);
  ASSERT_EQ(back.images[0].boxes->size(), 1u);
  expect_box(back.images[0].boxes->at(0), 1, 0.25, 0.5, 0.125, 0.0625);
  EXPECT_TRUE(back.images[1].boxes && back.images[1].boxes->empty());
  EXPECT_FALSE(back.images[2].boxes);
}

TEST(Labels, ImportsCocoWithSparseCategoryIds) {
  // CVAT and Label Studio number categories as they like; classes follow ascending ids.
  const std::string dir = test::temp_dir("coco_in");
  std::ofstream(dir + "/coco.json") << R"({
    "images": [{"id": 17, "file_name": "a.jpg", "width": 200, "height": 100},
               {"id": 18, "file_name": "b.jpg", "width": 200, "height": 100}],
    "annotations": [{"id": 1, "image_id": 17, "category_id": 9, "bbox": [10, 20, 40, 10], "area": 400, "iscrowd": 0},
                    {"id": 2, "image_id": 17, "category_id": 3, "bbox": [0, 0, 200, 100]}],
    "categories": [{"id": 9, "name": "enemy"}, {"id": 3, "name": "pickup"}]})";
  const LabelSet set = import_coco(dir + "/coco.json");
  EXPECT_EQ(set.classes, (std::vector<std::string>{"pickup", "enemy"}));
  ASSERT_EQ(set.images.size(), 2u);
  ASSERT_EQ(set.images[0].boxes->size(), 2u);
  expect_box(set.images[0].boxes->at(0), 1, 0.15, 0.25, 0.2, 0.1);
  expect_box(set.images[0].boxes->at(1), 0, 0.5, 0.5, 1.0, 1.0);
  EXPECT_TRUE(set.images[1].boxes->empty());
}

TEST(Labels, CocoErrorsNameTheEntry) {
  const nlohmann::json bad = {{"images", {{{"id", 1}, {"file_name", "a"}, {"width", 10}, {"height", 10}}}},
                              {"annotations", {{{"image_id", 1}, {"category_id", 5}, {"bbox", {0, 0, 1, 1}}}}},
                              {"categories", {{{"id", 1}, {"name", "x"}}}}};
  try {
    parse_coco(bad, "c.json");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("annotations[0]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_coco(nlohmann::json::object(), "c.json"), UsageError);
  nlohmann::json wide = bad;
  wide["images"][0]["width"] = 1e30;  // was converted to int with undefined behaviour
  try {
    parse_coco(wide, "c.json");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "c.json: images[0]: 'width' must be a whole number in int's range");
  }
}

TEST(Labels, CocoRoundTripAndYoloToCoco) {
  const std::string dir = test::temp_dir("coco_rt");
  LabelSet set;
  set.classes = {"worker", "soldier", "enemy"};
  set.images = {{"frames/000000.jpg", 256, 144, std::vector<LabelBox>{{2, 0.5, 0.5, 0.25, 0.5}, {0, 0.1, 0.9, 0.05, 0.1}}},
                {"frames/000001.jpg", 256, 144, std::vector<LabelBox>{}}};
  export_coco(dir + "/coco.json", set);
  const LabelSet back = import_coco(dir + "/coco.json");
  EXPECT_EQ(back.classes, set.classes);
  ASSERT_EQ(back.images.size(), 2u);
  EXPECT_EQ(back.images[0].file, "frames/000000.jpg");
  ASSERT_EQ(back.images[0].boxes->size(), 2u);
  expect_box(back.images[0].boxes->at(0), 2, 0.5, 0.5, 0.25, 0.5);
  expect_box(back.images[0].boxes->at(1), 0, 0.1, 0.9, 0.05, 0.1);
  EXPECT_TRUE(back.images[1].boxes->empty());
}

}  // namespace
}  // namespace pictor::ic
