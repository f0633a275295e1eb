// The encodings list the RFB client sends in SetEncodings: Tight with JPEG at an exact quality and
// chroma subsampling (TigerVNC pseudo-encodings), plus every pseudo-encoding libvncclient advertises.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pictor::client::rfb {

// Encoding numbers (RFB protocol and TigerVNC), as the signed 32-bit values sent on the wire.
inline constexpr std::int32_t kRaw = 0;
inline constexpr std::int32_t kCopyRect = 1;
inline constexpr std::int32_t kTight = 7;
inline constexpr std::int32_t kZrle = 16;
inline constexpr std::int32_t kQualityLevel0 = -32;      // -32..-23: JPEG quality levels 0..9
inline constexpr std::int32_t kCompressLevel0 = -256;    // -256..-247: zlib levels 0..9
inline constexpr std::int32_t kFineQuality0 = -512;      // -512..-412: TigerVNC JPEG quality 0..100
inline constexpr std::int32_t kContinuousUpdates = -313;
inline constexpr std::int32_t kFence = -312;

// JPEG chroma subsampling, as TigerVNC names it: 1X = 4:4:4, 2X = 4:2:2, 4X = 4:2:0, gray.
enum class Subsampling { s444, s422, s420, gray };
// "4:4:4", "4:2:2", "4:2:0", "gray"; throws UsageError naming the text.
Subsampling parse_subsampling(std::string_view text);
std::string_view subsampling_name(Subsampling s);
// TigerVNC's pseudo-encoding for it: -768 (1X), -766 (2X), -767 (4X), -765 (gray).
std::int32_t subsampling_encoding(Subsampling s);

// The quality level 0..9 whose JPEG quality in TigerVNC's table (15 29 41 42 62 77 79 86 92 100)
// is nearest `jpeg_quality` (ties: the higher level). Servers that ignore the fine-quality
// pseudo-encoding (x11vnc) use this level. Throws UsageError outside 1..100.
int quality_level_for(int jpeg_quality);
// The JPEG quality TigerVNC uses for a level 0..9.
int tigervnc_level_quality(int level);

// "Tight", "JPEGFineQuality80", "ContinuousUpdates", ... ; "encoding N" when unknown.
std::string encoding_name(std::int32_t encoding);

// True for pseudo-encodings other than the quality and compression levels: what must be repeated
// when the client replaces libvncclient's list (libvncclient handles them: cursor shape, desktop
// size, LastRect which Tight needs, ...). False for real encodings (Raw..ZYWRLE, UltraZip).
bool is_capability_pseudo_encoding(std::int32_t encoding);

struct EncodingsRequest {
  int jpeg_quality = 80;  // 1..100
  Subsampling subsampling = Subsampling::s420;
  int compress_level = 1;  // 0..9
  bool continuous_updates = true;
};

// The list to send, in preference order: Tight, CopyRect, ZRLE, Raw; the quality level, the
// compression level, TigerVNC fine quality and subsampling; continuous updates and fence when
// asked; then every capability pseudo-encoding of `libvncclient_list` (what libvncclient's own
// SetFormatAndEncodings sends), in its order, without duplicates. Throws UsageError on a value
// out of range.
std::vector<std::int32_t> build_encodings(const EncodingsRequest& request,
                                          const std::vector<std::int32_t>& libvncclient_list);

}  // namespace pictor::client::rfb
