// The stage columns as a partition of each input's RTT (DESIGN §6): every interval between two
// consecutive timestamps of the input's path goes to exactly one stage, wait or unattributed column.
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace pictor::analysis {

struct MatchedInput;

// The columns in path order. unattributed holds what lies between two timestamps when a
// timestamp between them is unknown (or out of order), so the columns always sum to the RTT.
enum class Column { CS, SP, wait_app, PS, AL, AS, wait_later_frame, wait_proxy, CP, SS, unattributed };
inline constexpr std::size_t kColumns = 11;

struct ColumnInfo {
  Column column;
  const char* name;   // inputs.csv / summary.json key, e.g. "CS_ms"
  const char* label;  // the table's name, e.g. "CS"
  bool remote_only;   // on the path of a proxy adapter only (shown when something measured it)
};
const std::array<ColumnInfo, kColumns>& partition_columns();

double column_value(const MatchedInput& m, Column c);

struct PartitionCounts {
  std::size_t overlaps = 0;      // inputs where a later stage began before an earlier one ended
  std::size_t out_of_order = 0;  // inputs with a timestamp before the one that precedes it (dropped)
};

// Sets every input's stage columns from its path and sent/seen times: a stage is the interval from
// the previous timestamp to its own when both are known. Where the proxy or the client already
// worked on the frame before the app's swap call returned (or the proxy encoded while it was
// writing), the overlap belongs to the earlier stage: those timestamps are clamped into
// [previous, seen]. A timestamp of the input's own path (proxy read, delivery, app read, swap
// start) that comes before the one preceding it is inconsistent and treated as unknown.
// unattributed_ms is set for matched inputs only.
PartitionCounts partition_rtt(std::span<MatchedInput> inputs);

// llvmpipe, softpipe, swrast: renderers that rasterise inside the swap call (AS is then RD+AS).
bool is_software_renderer(std::string_view gl_renderer);

}  // namespace pictor::analysis
