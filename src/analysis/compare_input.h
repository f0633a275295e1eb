// What `pictor compare` compares: each side given as a path (a session, a `--repeat` run, a suite)
// or a comma list of them, resolved into named units of sessions. The one place a side's text is
// turned into session directories, so a results-database id can be resolved here later.
#pragma once
#include <string>
#include <vector>

#include "analysis/compare.h"

namespace pictor::analysis {

// One benchmark's sessions on one side: a single session, or the repeats of a run. A suite gives
// one unit per benchmark, named after it; a plain session or run has the name "".
struct CompareUnit {
  std::string name;
  std::vector<std::string> sessions;
};

// One item of a side: a session directory ({"", [DIR]}), a directory written by `--repeat N`
// ({"", [DIR/repeat-1, …]}), or a suite directory (one unit per benchmark that has a session
// directory). Throws UsageError naming the item when it is none of these.
std::vector<CompareUnit> resolve_compare_item(const std::string& item);

// A side: ITEM or ITEM1,ITEM2,… (a text that names an existing path is one item, commas and all);
// the units of its items merged by name, so "A1,A2,A3" is one unit of three runs.
std::vector<CompareUnit> resolve_compare_side(const std::string& spec);

// The units of A and B to compare with each other: those of the same name; when each side has
// exactly one unit, those two whatever their names. `unpaired` gets one line per unit left out.
struct UnitPair {
  std::string name;
  CompareUnit a, b;
};
std::vector<UnitPair> pair_units(const std::vector<CompareUnit>& a, const std::vector<CompareUnit>& b,
                                 std::vector<std::string>& unpaired);

// One pair of units compared: two single sessions within-session, or at least two runs on each
// side across runs. Throws UsageError for one run against several, or a run without figures.
Comparison compare_unit_pair(const UnitPair& pair, const CompareOptions& options);

}  // namespace pictor::analysis
