// The mark tests by name: MotionMark 1.3.1's eight (the default suite) plus Focus, each an OpenGL
// analogue in its own file, created through this one factory.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "mark/stage.h"
#include "mark/tests/sprites.h"

namespace pictor::mark::stages {

struct TestInfo {
  std::string name;         // command-line name, e.g. "arcs"
  std::string title;        // MotionMark's name, e.g. "Arcs & Fills"
  std::string description;  // what the elements are
  bool default_suite = true;
};

const std::vector<TestInfo>& test_catalog();
const TestInfo& find_test(const std::string& name);  // throws UsageError listing the names
std::vector<std::string> default_suite();

// Creates the stage with the GL context current (it allocates GL resources).
std::unique_ptr<Stage> make_stage(const std::string& name, SpriteRenderer& renderer);

// One factory per file.
std::unique_ptr<Stage> make_multiply(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_arcs(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_leaves(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_paths(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_lines(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_images(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_design(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_suits(SpriteRenderer& renderer);
std::unique_ptr<Stage> make_focus(SpriteRenderer& renderer);

}  // namespace pictor::mark::stages
