// The encodings list of the RFB client: quality mapping, subsampling names, and that every
// capability pseudo-encoding libvncclient advertises is repeated (TigerVNC drops clients otherwise).
#include <gtest/gtest.h>

#include <algorithm>

#include "client/rfb_connection.h"
#include "client/rfb_encodings.h"
#include "core/error.h"

namespace pictor::client::rfb {
namespace {

bool contains(const std::vector<std::int32_t>& v, std::int32_t e) {
  return std::find(v.begin(), v.end(), e) != v.end();
}

TEST(RfbEncodings, QualityLevelIsTheNearestTigerVncLevel) {
  EXPECT_EQ(quality_level_for(15), 0);
  EXPECT_EQ(quality_level_for(1), 0);
  EXPECT_EQ(quality_level_for(42), 3);
  EXPECT_EQ(quality_level_for(80), 6);  // 79
  EXPECT_EQ(quality_level_for(83), 7);  // 86 is nearer than 79
  EXPECT_EQ(quality_level_for(100), 9);
  EXPECT_THROW(quality_level_for(0), UsageError);
  EXPECT_THROW(quality_level_for(101), UsageError);
}

TEST(RfbEncodings, SubsamplingNamesAndNumbers) {
  EXPECT_EQ(subsampling_encoding(parse_subsampling("4:4:4")), -768);
  EXPECT_EQ(subsampling_encoding(parse_subsampling("4:2:0")), -767);
  EXPECT_EQ(subsampling_encoding(parse_subsampling("4:2:2")), -766);
  EXPECT_EQ(subsampling_encoding(parse_subsampling("gray")), -765);
  EXPECT_EQ(subsampling_name(Subsampling::s422), "4:2:2");
  EXPECT_THROW(parse_subsampling("420"), UsageError);
}

TEST(RfbEncodings, ListHasTightFirstTheLevelsAndEveryLibvncclientPseudoEncoding) {
  const std::vector<std::int32_t> libvnc = {7, 1, -255, -25, -240, -239, -232, -131072, -223,
                                            -308, -224, -131071, -131070, -131069, -309, -258};
  EncodingsRequest r;
  r.jpeg_quality = 42;
  r.subsampling = Subsampling::s444;
  r.compress_level = 2;
  const auto list = build_encodings(r, libvnc);
  EXPECT_EQ(list.front(), kTight);
  EXPECT_TRUE(contains(list, kQualityLevel0 + 3));
  EXPECT_TRUE(contains(list, kCompressLevel0 + 2));
  EXPECT_TRUE(contains(list, kFineQuality0 + 42));
  EXPECT_TRUE(contains(list, -768));
  EXPECT_TRUE(contains(list, kContinuousUpdates));
  EXPECT_TRUE(contains(list, kFence));
  for (const std::int32_t e : libvnc) {
    if (is_capability_pseudo_encoding(e)) {
      EXPECT_TRUE(contains(list, e)) << encoding_name(e);
    }
  }
  // libvncclient's own levels are replaced, not repeated.
  EXPECT_FALSE(contains(list, -255));
  EXPECT_FALSE(contains(list, -25));
  // No duplicates.
  auto sorted = list;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  r.continuous_updates = false;
  EXPECT_FALSE(contains(build_encodings(r, libvnc), kContinuousUpdates));
  r.compress_level = 10;
  EXPECT_THROW(build_encodings(r, libvnc), UsageError);
}

TEST(RfbEncodings, Names) {
  EXPECT_EQ(encoding_name(7), "Tight");
  EXPECT_EQ(encoding_name(-512 + 80), "JPEGFineQuality80");
  EXPECT_EQ(encoding_name(-32 + 6), "JPEGQualityLevel6");
  EXPECT_EQ(encoding_name(-313), "ContinuousUpdates");
  EXPECT_EQ(encoding_name(-224), "LastRect");
  EXPECT_EQ(encoding_name(12345), "encoding 12345");
}

TEST(RfbEncodings, LibvncclientsOwnListIsReadBack) {
  const auto list = libvncclient_encodings();
  EXPECT_TRUE(contains(list, kTight));
  EXPECT_TRUE(contains(list, -224)) << "LastRect comes with Tight";
  EXPECT_TRUE(contains(list, -239)) << "RichCursor: remote cursor asked";
}

}  // namespace
}  // namespace pictor::client::rfb
