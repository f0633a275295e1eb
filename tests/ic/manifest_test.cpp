// The model manifest's reader and writer (ic/manifest.h), without libtorch: a written manifest
// reads back as it was, and what fuzz_manifest checks for (fuzz/corpus/manifest/).
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "ic/manifest.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

ModelManifest valid_manifest() {
  ModelManifest m = test::hand_manifest({"player", "car"}, {"Left", "Right"});
  m.hold_thresholds = {0.5, 0.4};
  m.release_thresholds = {0.3, 0.2};
  m.onset_scales = {1.0, 2.0, 0.5};
  m.repress_scales = {0.4, 0.45};
  m.aim_offsets = {{0.0, 0.2}, {0.01, 0.2}};
  m.event_given_target.assign(3, std::vector<double>(3, 1.0 / 3));
  return m;
}

std::string error_of(const nlohmann::json& j) {
  try {
    parse_manifest(j, "m.json");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Manifest, AWrittenManifestReadsBackAsItWas) {
  const nlohmann::json written = manifest_json(valid_manifest());
  EXPECT_EQ(manifest_json(parse_manifest(written, "m.json")), written);
}

// fuzz/corpus/manifest/schema_beyond_int, window_beyond_int: nlohmann converts a float beyond
// int's range to int with undefined behaviour (UBSan: "3e+10 is outside the range of
// representable values of type 'int'"); integer fields are now whole numbers in int's range.
TEST(Manifest, IntegerFieldsBeyondIntsRangeAreErrorsNotConversions) {
  EXPECT_EQ(error_of({{"schema", 3e10}}), "m.json: 'schema' must be a whole number in int's range");
  nlohmann::json j = manifest_json(valid_manifest());
  j["window"] = {1e30, 720};
  EXPECT_EQ(error_of(j), "m.json: 'window' must list whole numbers in int's range");
  j = manifest_json(valid_manifest());
  j["policy"]["hidden"] = std::uint64_t{1} << 40;
  EXPECT_EQ(error_of(j), "m.json: policy: 'hidden' must be a whole number in int's range");
  j["policy"]["hidden"] = 64.0;  // a float is not a count, even a whole one
  EXPECT_EQ(error_of(j), "m.json: policy: 'hidden' must be a whole number in int's range");
}

}  // namespace
}  // namespace pictor::ic
