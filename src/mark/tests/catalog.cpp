#include "mark/tests/catalog.h"

#include "core/error.h"

namespace pictor::mark::stages {

const std::vector<TestInfo>& test_catalog() {
  static const std::vector<TestInfo> tests{
      {"multiply", "Multiply", "rotating rounded tiles in a spiral, colour and opacity by time and distance"},
      {"arcs", "Arcs & Fills", "stroked arcs and filled wedges on a staggered grid"},
      {"leaves", "Leaves", "textured leaf sprites falling with rotation and fading opacity"},
      {"paths", "Paths", "one random-walk path of line, quadratic and cubic segments"},
      {"lines", "Lines", "short thick segments radiating from circles over a gradient"},
      {"images", "Images", "per-element pixel readback, modify and upload"},
      {"design", "Design", "text in many sizes along a rotating ray (FreeType glyphs)"},
      {"suits", "Suits", "suit-clipped shapes with per-element gradients, emitted with gravity"},
      {"focus", "Focus", "blurred, semi-transparent circles", false},
  };
  return tests;
}

const TestInfo& find_test(const std::string& name) {
  std::string names;
  for (const auto& t : test_catalog()) {
    if (t.name == name) return t;
    names += (names.empty() ? "" : ", ") + t.name;
  }
  throw UsageError("unknown mark test '" + name + "' (tests: " + names + ")");
}

std::vector<std::string> default_suite() {
  std::vector<std::string> names;
  for (const auto& t : test_catalog())
    if (t.default_suite) names.push_back(t.name);
  return names;
}

std::unique_ptr<Stage> make_stage(const std::string& name, SpriteRenderer& renderer) {
  find_test(name);
  if (name == "multiply") return make_multiply(renderer);
  if (name == "arcs") return make_arcs(renderer);
  if (name == "leaves") return make_leaves(renderer);
  if (name == "paths") return make_paths(renderer);
  if (name == "lines") return make_lines(renderer);
  if (name == "images") return make_images(renderer);
  if (name == "design") return make_design(renderer);
  if (name == "suits") return make_suits(renderer);
  return make_focus(renderer);
}

}  // namespace pictor::mark::stages
