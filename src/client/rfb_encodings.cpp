#include "client/rfb_encodings.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>

#include "core/error.h"

namespace pictor::client::rfb {

namespace {

// TigerVNC's TightJPEGEncoder table: the JPEG quality of each quality level.
constexpr std::array<int, 10> kLevelQuality = {15, 29, 41, 42, 62, 77, 79, 86, 92, 100};

constexpr std::int32_t kSubsamp1X = -768, kSubsamp4X = -767, kSubsamp2X = -766, kSubsampGray = -765;

bool in_range(std::int32_t e, std::int32_t first, int count) { return e >= first && e < first + count; }

}  // namespace

Subsampling parse_subsampling(std::string_view text) {
  if (text == "4:4:4") return Subsampling::s444;
  if (text == "4:2:2") return Subsampling::s422;
  if (text == "4:2:0") return Subsampling::s420;
  if (text == "gray") return Subsampling::gray;
  throw UsageError(fmt::format("rfb: unknown chroma subsampling '{}' (4:4:4, 4:2:2, 4:2:0 or gray)", text));
}

std::string_view subsampling_name(Subsampling s) {
  switch (s) {
    case Subsampling::s444: return "4:4:4";
    case Subsampling::s422: return "4:2:2";
    case Subsampling::s420: return "4:2:0";
    case Subsampling::gray: return "gray";
  }
  return "?";
}

std::int32_t subsampling_encoding(Subsampling s) {
  switch (s) {
    case Subsampling::s444: return kSubsamp1X;
    case Subsampling::s422: return kSubsamp2X;
    case Subsampling::s420: return kSubsamp4X;
    case Subsampling::gray: return kSubsampGray;
  }
  return kSubsamp4X;
}

int quality_level_for(int jpeg_quality) {
  if (jpeg_quality < 1 || jpeg_quality > 100)
    throw UsageError(fmt::format("rfb: JPEG quality {} is outside 1..100", jpeg_quality));
  int best = 0;
  for (int level = 1; level < 10; ++level) {
    if (std::abs(kLevelQuality[static_cast<std::size_t>(level)] - jpeg_quality) <=
        std::abs(kLevelQuality[static_cast<std::size_t>(best)] - jpeg_quality))
      best = level;
  }
  return best;
}

int tigervnc_level_quality(int level) { return kLevelQuality.at(static_cast<std::size_t>(level)); }

std::string encoding_name(std::int32_t e) {
  switch (e) {
    case 0: return "Raw";
    case 1: return "CopyRect";
    case 2: return "RRE";
    case 4: return "CoRRE";
    case 5: return "Hextile";
    case 6: return "Zlib";
    case 7: return "Tight";
    case 8: return "ZlibHex";
    case 15: return "TRLE";
    case 16: return "ZRLE";
    case 17: return "ZYWRLE";
    case -240: return "XCursor";
    case -239: return "RichCursor";
    case -232: return "PointerPos";
    case -224: return "LastRect";
    case -223: return "NewFBSize";
    case -258: return "QEMUExtendedKeyEvent";
    case -260: return "TightPNG";
    case -308: return "ExtendedDesktopSize";
    case -309: return "xvp";
    case kFence: return "Fence";
    case kContinuousUpdates: return "ContinuousUpdates";
    case kSubsamp1X: return "JPEGSubsamp1X";
    case kSubsamp4X: return "JPEGSubsamp4X";
    case kSubsamp2X: return "JPEGSubsamp2X";
    case kSubsampGray: return "JPEGSubsampGray";
    case static_cast<std::int32_t>(0xFFFE0000u): return "KeyboardLedState";
    case static_cast<std::int32_t>(0xFFFE0001u): return "SupportedMessages";
    case static_cast<std::int32_t>(0xFFFE0002u): return "SupportedEncodings";
    case static_cast<std::int32_t>(0xFFFE0003u): return "ServerIdentity";
    case static_cast<std::int32_t>(0xFFFF0009u): return "UltraZip";
    case 9: return "Ultra";
    default: break;
  }
  if (in_range(e, kQualityLevel0, 10)) return fmt::format("JPEGQualityLevel{}", e - kQualityLevel0);
  if (in_range(e, kCompressLevel0, 10)) return fmt::format("CompressLevel{}", e - kCompressLevel0);
  if (in_range(e, kFineQuality0, 101)) return fmt::format("JPEGFineQuality{}", e - kFineQuality0);
  return fmt::format("encoding {}", e);
}

bool is_capability_pseudo_encoding(std::int32_t e) {
  if (e >= 0) return false;  // Raw, CopyRect, ... ZYWRLE, H.264
  if (e == static_cast<std::int32_t>(0xFFFF0009u)) return false;  // UltraZip: a real encoding
  // The levels are Pictor's own choice, never repeated from libvncclient's defaults.
  if (in_range(e, kQualityLevel0, 10) || in_range(e, kCompressLevel0, 10) ||
      in_range(e, kFineQuality0, 101) || in_range(e, kSubsamp1X, 6))
    return false;
  return true;
}

std::vector<std::int32_t> build_encodings(const EncodingsRequest& r,
                                          const std::vector<std::int32_t>& libvncclient_list) {
  const int level = quality_level_for(r.jpeg_quality);
  if (r.compress_level < 0 || r.compress_level > 9)
    throw UsageError(fmt::format("rfb: compression level {} is outside 0..9", r.compress_level));
  std::vector<std::int32_t> out = {kTight, kCopyRect, kZrle, kRaw, kQualityLevel0 + level,
                                   kCompressLevel0 + r.compress_level, kFineQuality0 + r.jpeg_quality,
                                   subsampling_encoding(r.subsampling)};
  // Fence comes with continuous updates: TigerVNC enables them only for a client that has both.
  if (r.continuous_updates) {
    out.push_back(kContinuousUpdates);
    out.push_back(kFence);
  }
  for (const std::int32_t e : libvncclient_list) {
    if (is_capability_pseudo_encoding(e) && std::find(out.begin(), out.end(), e) == out.end())
      out.push_back(e);
  }
  return out;
}

}  // namespace pictor::client::rfb
