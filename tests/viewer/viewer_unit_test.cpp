// The stock-viewer adapters' pure part: which TigerVNC quality level vncviewer is given for
// --vnc-quality (Pictor's RFB client asks for the exact JPEG quality; the viewer only has levels).
#include <gtest/gtest.h>

#include "runner/viewer_adapter.h"

namespace r = pictor::runner;

TEST(TightLevel, NearestToTheRequestedQuality) {
  EXPECT_EQ(r::nearest_tight_level(80).level, 6);  // --vnc-quality's default: level 6 is JPEG 79
  EXPECT_EQ(r::nearest_tight_level(80).jpeg_quality, 79);
  EXPECT_EQ(r::nearest_tight_level(1).level, 0);
  EXPECT_EQ(r::nearest_tight_level(15).level, 0);
  EXPECT_EQ(r::nearest_tight_level(41).level, 2);  // 41 and 42 are two levels: each its own
  EXPECT_EQ(r::nearest_tight_level(42).level, 3);
  EXPECT_EQ(r::nearest_tight_level(70).level, 5);  // 62 | 70 | 77: nearer 77
  EXPECT_EQ(r::nearest_tight_level(100).level, 9);
  EXPECT_EQ(r::nearest_tight_level(100).jpeg_quality, 100);
}
