// What `pictor db` prints: the list of runs, one run in full, the CSV export, and the same as JSON.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "db/results_store.h"

namespace pictor::db {

// The figures `pictor db list` shows beside each run (a session's, or a repeat run's mean).
std::vector<std::string> list_figure_names();

// One line per run, newest first, under a header line.
std::string format_run_list(const ResultsStore& store, const ListFilter& filter);
nlohmann::json run_list_json(const ResultsStore& store, const ListFilter& filter);

// A run with every field and figure, and the runs inside it.
std::string format_run(const StoredRun& run, const std::vector<StoredRun>& children);
nlohmann::json run_json(const StoredRun& run, const std::vector<StoredRun>& children);

// Every metric of the selected runs, one row per (run, metric), the header row first:
// id,kind,parent_id,start_time,app,adapter,driver,host,status,dir,metric,value. A run without
// figures has one row with metric and value empty; an unknown figure has an empty value.
std::string export_csv(const ResultsStore& store, const ListFilter& filter);

}  // namespace pictor::db
