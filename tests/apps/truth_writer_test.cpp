// The ground-truth writer: YOLO txt per frame, classes.txt and a COCO JSON that parse and agree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "apps/game/truth_writer.h"

using namespace pictor::game;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("pictor-truth-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(p);
  return p;
}

}  // namespace

TEST(TruthWriter, YoloAndCocoDescribeTheSameBoxes) {
  const fs::path dir = fresh("yolo");
  {
    TruthWriter w(dir.string(), {"car", "obstacle"}, 200, 100, 2, false);
    EXPECT_TRUE(w.wants(0));
    EXPECT_FALSE(w.wants(1));
    w.write_frame(0, {{1, {10, 20, 50, 60}}, {0, {0, 0, 200, 100}}});
    w.write_frame(2, {});
    w.finish();
  }
  EXPECT_EQ(slurp(dir / "classes.txt"), "car\nobstacle\n");
  EXPECT_EQ(slurp(dir / "labels" / "frame_000000.txt"),
            "1 0.150000 0.400000 0.200000 0.400000\n0 0.500000 0.500000 1.000000 1.000000\n");
  EXPECT_EQ(slurp(dir / "labels" / "frame_000002.txt"), "");
  const auto coco = nlohmann::json::parse(slurp(dir / "coco.json"));
  ASSERT_EQ(coco["images"].size(), 2u);
  EXPECT_EQ(coco["images"][0]["file_name"], "images/frame_000000.ppm");
  EXPECT_EQ(coco["images"][1]["id"], 2);
  EXPECT_EQ(coco["images"][0]["width"], 200);
  ASSERT_EQ(coco["categories"].size(), 2u);
  EXPECT_EQ(coco["categories"][0]["id"], 1);
  EXPECT_EQ(coco["categories"][0]["name"], "car");
  ASSERT_EQ(coco["annotations"].size(), 2u);
  const auto& a = coco["annotations"][0];
  EXPECT_EQ(a["image_id"], 0);
  EXPECT_EQ(a["category_id"], 2) << "COCO ids are 1-based: obstacle";
  EXPECT_EQ(a["bbox"], nlohmann::json({10.0, 20.0, 40.0, 40.0}));
  EXPECT_EQ(a["area"], 1600.0);
  EXPECT_EQ(a["iscrowd"], 0);
  EXPECT_NE(coco["annotations"][0]["id"], coco["annotations"][1]["id"]);
  fs::remove_all(dir);
}

TEST(TruthWriter, ImagesAreTopDownPpm) {
  const fs::path dir = fresh("ppm");
  TruthWriter w(dir.string(), {"x"}, 2, 2, 1, true);
  // GL order: bottom row first. Bottom row red, top row blue.
  w.write_image(5, {255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255});
  const std::string ppm = slurp(dir / "images" / "frame_000005.ppm");
  const std::string head = "P6\n2 2\n255\n";
  ASSERT_EQ(ppm.size(), head.size() + 12);
  EXPECT_EQ(ppm.substr(0, head.size()), head);
  EXPECT_EQ(static_cast<unsigned char>(ppm[head.size() + 2]), 255u) << "top row first: blue";
  EXPECT_EQ(static_cast<unsigned char>(ppm[head.size() + 6]), 255u) << "then red";
  fs::remove_all(dir);
}

TEST(TruthWriter, UnwritableDirectoryIsAClearError) {
  try {
    TruthWriter w("/proc/pictor-no/truth", {"x"}, 2, 2, 1, false);
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create ground-truth directory '/proc/pictor-no/truth'"),
              std::string::npos)
        << e.what();
  }
}
