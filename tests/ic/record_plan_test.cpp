// `pictor record`'s plan: REC's paths, the game's truth and state options, the reference
// player's spec, and the refusals — all before a session starts or a file is written; then REC
// claimed (refused over an earlier recording unless forced).
#include "ic/record.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "temp_dir.h"

namespace pictor::ic {
namespace {

namespace fs = std::filesystem;

RecordOptions racing(const std::string& out) {
  RecordOptions o;
  o.run.builtin = "racing:seed=3";
  o.target_label = "builtin:racing:seed=3";
  o.seed = 7;
  o.out = out;
  return o;
}

TEST(RecordPlan, GameWritesItsTruthIntoRecAndTheReferenceReadsIt) {
  const std::string dir = test::temp_dir("plan") + "/rec";
  const RecordingPlan p = plan_recording(racing(dir));
  const std::string rec = fs::absolute(dir).lexically_normal().string();
  EXPECT_EQ(p.dir, rec);
  EXPECT_EQ(p.truth_dir, rec + "/truth");
  EXPECT_EQ(p.run.builtin, "racing:seed=3,truth=" + rec + "/truth,state=" + rec + "/session/state.csv");
  EXPECT_EQ(p.run.out_dir, rec + "/session");
  EXPECT_EQ(p.run.driver, "reference:game=racing,seed=7,truth=" + rec + "/truth");
  EXPECT_FALSE(fs::exists(dir));  // planning writes nothing
}

TEST(RecordPlan, ReferenceOptionsAndOtherDriversAreKept) {
  const std::string dir = test::temp_dir("plan-opts") + "/rec";
  RecordOptions o = racing(dir);
  o.run.builtin = "racing";
  o.driver = "reference:rt=300ms";
  const RecordingPlan p = plan_recording(o);
  EXPECT_EQ(p.run.builtin.rfind("racing:truth=", 0), 0u) << p.run.builtin;
  EXPECT_EQ(p.run.driver, "reference:game=racing,seed=7,truth=" + p.truth_dir + ",rt=300ms");
  o.driver = "scripted:rate=4";
  EXPECT_EQ(plan_recording(o).run.driver, "scripted:rate=4");
}

TEST(RecordPlan, RefusesWhatCannotBeRecorded) {
  const std::string dir = test::temp_dir("plan-refused");
  RecordOptions o = racing(dir + "/rec");
  o.out.clear();
  EXPECT_THROW(plan_recording(o), UsageError);  // no --out
  o = racing(dir + "/rec");
  o.run.builtin = "racing:truth=/tmp/x";
  EXPECT_THROW(plan_recording(o), UsageError);  // the record sets truth= itself
  o = racing(dir + "/rec");
  o.run.builtin = "spin";
  o.target_label = "builtin:spin";
  EXPECT_THROW(plan_recording(o), UsageError);  // the reference player plays the games only
  o.driver = "scripted:rate=2";
  const RecordingPlan spin = plan_recording(o);
  EXPECT_EQ(spin.run.builtin, "spin");  // no truth for a scene that writes none
}

TEST(RecordPlan, ClaimRefusesAnEarlierRecordingUnlessForced) {
  const std::string dir = test::temp_dir("plan-claim") + "/rec";
  const RecordingPlan p = plan_recording(racing(dir));
  claim_recording_dir(p, false);
  EXPECT_TRUE(fs::is_directory(dir));
  std::ofstream(dir + "/recording.json") << "{}";
  std::ofstream(dir + "/notes.txt") << "x";
  EXPECT_THROW(claim_recording_dir(p, false), UsageError);  // a recording is there already
  EXPECT_TRUE(fs::exists(dir + "/recording.json"));         // and is kept
  claim_recording_dir(p, true);
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_TRUE(fs::is_empty(dir));  // --force: what was there is gone
}

}  // namespace
}  // namespace pictor::ic
