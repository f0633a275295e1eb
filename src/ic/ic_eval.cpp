#include "ic/ic_eval.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/rtt.h"
#include "analysis/stats.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_util.h"
#include "core/out_dir.h"
#include "ic/distribution_distance.h"
#include "ic/recording.h"
#include "ic/reference_player.h"

namespace pictor::ic {

namespace fs = std::filesystem;

namespace {

// Reads a Pictor CSV (comment lines first, then a header) and calls f(row, header) per row.
template <class F>
void for_each_row(const fs::path& path, F f) {
  const std::string text = files::read_file(path);
  analysis::CsvReader reader(text, path.string());
  analysis::CsvRow row;
  std::unique_ptr<analysis::CsvHeader> header;
  std::vector<std::string> notes;
  while (reader.next(row)) {
    if (!row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#') continue;
    if (!header) {
      header = std::make_unique<analysis::CsvHeader>(row, path.string());
      continue;
    }
    if (!analysis::check_row_width(row, *header, notes)) continue;
    f(row, *header);
  }
  if (!header) analysis::fail_at(path.string(), 1, "no header line");
}

// The driver's name; an ic driver with options after its model path gets them too
// ("ic,act=held"), so two variants of one model get distinct rows.
std::string label_of(const std::string& spec) {
  const auto colon = spec.find(':');
  std::string label = spec.substr(0, colon);
  if (label == "ic" && colon != std::string::npos) {
    const auto comma = spec.find(',', colon);
    if (comma != std::string::npos) label += spec.substr(comma);
  }
  return label;
}

std::string safe_name(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return out.substr(0, 24);
}

}  // namespace

nlohmann::json read_final_state(const std::string& state_csv) {
  if (!fs::exists(state_csv)) return nullptr;
  nlohmann::json last = nullptr;
  for_each_row(state_csv, [&](const analysis::CsvRow& row, const analysis::CsvHeader& h) {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t c = 0; c < h.size(); ++c) {
      const std::string& t = row.fields[c];
      char* end = nullptr;
      const double v = std::strtod(t.c_str(), &end);
      if (!t.empty() && end == t.c_str() + t.size() && std::isfinite(v)) j[h.name(c)] = v;
      else j[h.name(c)] = t;
    }
    last = std::move(j);
  });
  return last;
}

SessionOutcome read_session_outcome(const std::string& session_dir) {
  const fs::path d(session_dir);
  SessionOutcome o;
  for_each_row(d / "inputs.csv", [&](const analysis::CsvRow& row, const analysis::CsvHeader& h) {
    ++o.inputs_sent;
    const std::string& kind = row.fields[h.require("kind")];
    if (kind == "key_press" || kind == "button_press") ++o.presses;
    if (row.fields[h.require("status")] == "matched") {
      const auto rtt = analysis::field_optional_double(row, h, h.require("rtt_ms"));
      if (rtt) o.rtt_ms.push_back(*rtt);
    }
  });
  if (fs::exists(d / "run.json")) {
    try {
      const auto run = nlohmann::json::parse(files::read_file(d / "run.json"));
      if (run.contains("duration_measured_s") && run["duration_measured_s"].is_number())
        o.duration_s = run["duration_measured_s"].get<double>();
      if (run.contains("client") && run["client"].contains("motions_sent"))
        o.motions = run["client"]["motions_sent"].get<std::size_t>();
      if (run.contains("driver") && run["driver"].is_string()) o.driver = run["driver"].get<std::string>();
    } catch (const nlohmann::json::exception& e) {
      throw UsageError((d / "run.json").string() + ": " + e.what());
    }
  }
  o.state = read_final_state((d / "state.csv").string());
  return o;
}

double actions_per_minute(const SessionOutcome& o) {
  if (!(o.duration_s > 0)) return NAN;
  return static_cast<double>(o.presses + o.motions) / (o.duration_s / 60.0);
}

nlohmann::json compare_row(const std::string& label, const SessionOutcome& o, const SessionOutcome& ref) {
  namespace st = analysis::stats;
  const double mean = st::mean(o.rtt_ms), ref_mean = st::mean(ref.rtt_ms);
  const std::vector<double> s = st::sorted(o.rtt_ms);
  return {{"driver", label},
          {"spec", o.driver},
          {"n", o.rtt_ms.size()},
          {"inputs_sent", o.inputs_sent},
          {"mean_ms", number_or_null(mean)},
          {"mean_error_pct", number_or_null((mean - ref_mean) / ref_mean * 100.0)},
          {"p1_ms", number_or_null(st::percentile_sorted(s, 1))},
          {"p25_ms", number_or_null(st::percentile_sorted(s, 25))},
          {"p50_ms", number_or_null(st::percentile_sorted(s, 50))},
          {"p75_ms", number_or_null(st::percentile_sorted(s, 75))},
          {"p99_ms", number_or_null(st::percentile_sorted(s, 99))},
          {"ks", number_or_null(ks_statistic(o.rtt_ms, ref.rtt_ms))},
          {"wasserstein_ms", number_or_null(wasserstein_1d(o.rtt_ms, ref.rtt_ms))},
          {"apm", number_or_null(actions_per_minute(o))},
          {"state", o.state}};
}

namespace {

nlohmann::json round_error_interval(const std::vector<double>& errors) {
  if (errors.size() < 2) return nullptr;
  const analysis::stats::MeanInterval m = analysis::stats::mean_t_interval(errors);
  return {{"rounds", errors.size()}, {"mean_pct", m.mean}, {"ci95_pct", {m.lo, m.hi}}};
}

}  // namespace

nlohmann::json median_rows(const std::vector<nlohmann::json>& round_rows) {
  namespace st = analysis::stats;
  if (round_rows.empty()) return nlohmann::json::array();
  const nlohmann::json& first = round_rows.front();
  for (const auto& rows : round_rows) {
    bool same = rows.size() == first.size();
    for (std::size_t i = 0; same && i < rows.size(); ++i) same = rows[i]["driver"] == first[i]["driver"];
    if (!same) throw UsageError("ic eval: the rounds ran different drivers; their rows cannot be combined");
  }
  auto median_of = [&](std::size_t row, const std::string& key, const char* within = nullptr) {
    std::vector<double> v;
    for (const auto& rows : round_rows) {
      const nlohmann::json& holder = within ? rows[row][within] : rows[row];
      if (holder.is_object() && holder.contains(key) && holder[key].is_number()) v.push_back(holder[key].get<double>());
    }
    return v.empty() ? nlohmann::json(nullptr) : nlohmann::json(st::percentile(v, 50));
  };
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < first.size(); ++i) {
    nlohmann::json row = first[i];
    std::size_t n = 0;
    for (const auto& rows : round_rows) n += rows[i].value("n", std::size_t{0});
    row["n"] = n;
    for (auto& [key, value] : row.items())
      if (key != "n" && (value.is_number() || value.is_null()) && key != "state") value = median_of(i, key);
    if (row["state"].is_object()) {
      nlohmann::json state = round_rows.back()[i]["state"];
      if (!state.is_object()) state = nlohmann::json::object();
      for (auto& [key, value] : row["state"].items())
        if (value.is_number()) state[key] = median_of(i, key, "state");
      row["state"] = state;
    }
    // Pooled over the rounds: every matched input of every round counts once (Σ n·mean / Σ n),
    // which uses the samples better than a median of per-round errors when rounds are few.
    auto pooled_mean = [&](std::size_t r) {
      double sum = 0, count = 0;
      for (const auto& rows : round_rows) {
        const nlohmann::json& x = rows[r];
        if (!x["mean_ms"].is_number()) continue;
        const double k = static_cast<double>(x.value("n", std::size_t{0}));
        sum += k * x["mean_ms"].get<double>();
        count += k;
      }
      return count > 0 ? sum / count : NAN;
    };
    const double pooled = pooled_mean(i), pooled_ref = pooled_mean(0);
    row["pooled_mean_ms"] = number_or_null(pooled);
    row["pooled_error_pct"] = number_or_null((pooled - pooled_ref) / pooled_ref * 100.0);
    nlohmann::json per_round = nlohmann::json::array();
    std::vector<double> errors;
    for (const auto& rows : round_rows) {
      per_round.push_back({{"mean_ms", rows[i]["mean_ms"]}, {"mean_error_pct", rows[i]["mean_error_pct"]},
                           {"state", rows[i]["state"]}});
      if (rows[i]["mean_error_pct"].is_number()) errors.push_back(rows[i]["mean_error_pct"].get<double>());
    }
    row["per_round"] = per_round;
    // How sure the error is: the rounds' errors as a sample (each round is its own reference,
    // run beside it, so load that changes between rounds shows here and not in one round's n).
    row["round_error"] = i == 0 ? nlohmann::json(nullptr) : round_error_interval(errors);
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<std::string> split_driver_specs(const std::string& list, const std::vector<std::string>& names) {
  // Driver specs use ',' for their own options, so the list is split where a new spec starts:
  // at a comma followed by a registered driver name and ':' (or the end).
  std::vector<std::string> specs;
  std::string current;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    const std::string part = list.substr(pos, comma - pos);
    const std::string name = part.substr(0, part.find(':'));
    bool starts_spec = false;
    for (const auto& n : names) starts_spec = starts_spec || n == name;
    if (starts_spec && !current.empty()) {
      specs.push_back(current);
      current.clear();
    }
    current += (current.empty() ? "" : ",") + part;
    pos = comma + 1;
  }
  if (!current.empty()) specs.push_back(current);
  return specs;
}

std::vector<EvalRun> eval_runs(const std::string& reference, const std::vector<std::string>& drivers,
                               bool reference_is_recording) {
  std::vector<EvalRun> runs;
  if (!reference_is_recording) runs.push_back({"reference", reference, true});
  for (const auto& d : drivers) {
    // The reference once more as a driver is the control row: the error a perfect imitation gets
    // on this machine. Repeated labels are numbered so every row stays distinct.
    std::string label = label_of(d);
    int same = 1;
    for (const auto& r : runs) same += r.label == label || r.label.rfind(label + "#", 0) == 0;
    if (same > 1 || label == "reference") label += fmt::format("#{}", std::max(same, 2));
    runs.push_back({label, d, false});
  }
  return runs;
}

namespace {

// What the sessions share: the checked options' consequences.
struct EvalPlan {
  fs::path out;
  bool ref_is_rec = false;
  std::string game;        // the built-in game's name
  bool has_truth = false;  // it writes ground truth and a state log
  std::vector<EvalRun> runs;
  SessionOutcome recorded_reference;  // with --reference REC: its session's outcome
  std::string reference_source;
};

// Phase "plan": the options checked, the rows, every spec made once before the first session
// starts (a typo should not cost a whole run), a recorded reference read, then the output
// directory claimed (core/out_dir.h).
EvalPlan plan_ic_eval(const EvalOptions& options) {
  if (options.drivers.empty()) throw UsageError("ic eval: --drivers lists no driver");
  if (options.reference.empty()) throw UsageError("ic eval: --reference REC|DRIVER is required");
  if (options.rounds < 1) throw UsageError("ic eval: --rounds must be at least 1");
  EvalPlan plan;
  plan.ref_is_rec = fs::exists(fs::path(options.reference) / "recording.json");
  plan.game = scene_name(options.run.builtin);
  plan.has_truth = plays_reference_game(plan.game);
  if (plan.has_truth && (options.run.builtin.find("truth=") != std::string::npos ||
                         options.run.builtin.find("state=") != std::string::npos))
    throw UsageError("ic eval sets the game's truth= and state= itself; leave them out of the target");
  plan.runs = eval_runs(options.reference, options.drivers, plan.ref_is_rec);
  for (const auto& r : plan.runs)
    if (!is_reference_spec(r.spec)) drivers::make_driver(r.spec);
  if (plan.ref_is_rec) {
    const Recording rec = read_recording(options.reference);
    plan.recorded_reference = read_session_outcome((fs::path(options.reference) / rec.info.session).string());
    plan.reference_source = fs::absolute(options.reference).lexically_normal().string();
  }
  // Last, once everything else is known good: a fresh directory, never one holding an earlier
  // evaluation or session (their files would mix); --force empties it.
  plan.out = claim_out_dir(options.out, (fs::path("pictor-out") / "ic-eval").string(), options.force);
  return plan;
}

// Phase "session": one row of one round in `dir`. Every row's game writes its ground truth, not
// only the reference's: writing a label file per frame costs the app time (docs/performance.md,
// "What ground truth costs"), and a row must differ from the reference only in its driver.
// Appends the session's record to `sessions`; returns its outcome (empty when unreadable) and
// the spec it ran.
std::pair<SessionOutcome, std::string> run_row(const EvalOptions& options, const EvalPlan& plan, const EvalRun& run,
                                               int round, const fs::path& dir, nlohmann::json& sessions) {
  runner::RunOptions o = options.run;
  o.out_dir = dir.string();
  std::string spec = run.spec;
  const fs::path abs = fs::absolute(dir);
  if (plan.has_truth) {
    std::string extra = fmt::format("state={},truth={}", (abs / "state.csv").string(), (abs / "truth").string());
    if (is_reference_spec(spec)) spec = complete_reference_spec(spec, plan.game, options.seed, (abs / "truth").string());
    o.builtin += (o.builtin.find(':') == std::string::npos ? ":" : ",") + extra;
  }
  o.driver = spec;
  if (!options.run.quiet) {
    const std::string of_round = options.rounds > 1 ? fmt::format(" round {}/{}", round, options.rounds) : "";
    std::fprintf(stderr, "pictor: ic eval%s: %s (%s)\n", of_round.c_str(), run.label.c_str(), spec.c_str());
  }
  const runner::RunResult r = runner::run_session(o);
  nlohmann::json s{{"driver", run.label}, {"spec", spec}, {"round", round},
                   {"session", abs.lexically_normal().string()}, {"exit_code", r.exit_code},
                   {"failure", r.failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.failure)}};
  sessions.push_back(s);
  SessionOutcome outcome;
  try {
    outcome = read_session_outcome(dir.string());
  } catch (const UsageError& e) {
    sessions.back()["failure"] = e.what();
  }
  return {std::move(outcome), spec};
}

// Phase "round": the reference (when it is a driver) and then every driver, each in its own
// session, compared with this round's reference (reference row first). A driver-run reference's
// spec becomes `reference_source`.
nlohmann::json run_round(const EvalOptions& options, const EvalPlan& plan, int round, nlohmann::json& sessions,
                         std::string& reference_source) {
  const fs::path round_dir = options.rounds == 1 ? plan.out : plan.out / fmt::format("r{}", round);
  SessionOutcome reference = plan.recorded_reference;
  std::vector<std::pair<std::string, SessionOutcome>> outcomes;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const EvalRun& run = plan.runs[i];
    const fs::path dir = round_dir / fmt::format("{:02d}-{}", i, safe_name(run.label));
    auto [outcome, spec] = run_row(options, plan, run, round, dir, sessions);
    if (run.reference) {
      reference = outcome;
      reference_source = spec;
    }
    outcomes.emplace_back(run.label, std::move(outcome));
  }
  nlohmann::json rows = nlohmann::json::array();
  rows.push_back(compare_row("reference", reference, reference));
  for (std::size_t i = 0; i < outcomes.size(); ++i)
    if (!plan.runs[i].reference) rows.push_back(compare_row(outcomes[i].first, outcomes[i].second, reference));
  return rows;
}

// Phase "write": ic_eval.json from the rounds' rows (medians with several rounds).
nlohmann::json write_ic_eval(const EvalOptions& options, const EvalPlan& plan, std::vector<nlohmann::json> round_rows,
                             nlohmann::json sessions, const std::string& reference_source) {
  nlohmann::json rows = options.rounds == 1 ? round_rows.front() : median_rows(round_rows);
  // A driver-run reference's spec names its own session's truth directory; say what it was.
  rows[0]["source"] = plan.ref_is_rec || options.rounds == 1 ? reference_source : options.reference;
  const nlohmann::json eval{{"schema", 2},
                            {"benchmark", options.target_label},
                            {"adapter", options.run.adapter},
                            {"net", options.run.net},
                            {"duration_s", options.run.duration_s},
                            {"rounds", options.rounds},
                            {"reference", rows[0]["source"]},
                            {"rows", rows},
                            {"round_rows", round_rows},
                            {"sessions", sessions},
                            {"definitions",
                             {{"mean_error_pct", "(mean RTT - reference mean RTT) / reference mean RTT * 100"},
                              {"ks", "two-sample Kolmogorov-Smirnov statistic, sup |F_driver - F_reference|"},
                              {"wasserstein_ms", "1-D Wasserstein distance, integral of |F_driver - F_reference| dx"},
                              {"apm", "key/button presses + pointer motions sent per minute of session"},
                              {"rounds", "with rounds > 1 each row's numbers are nearest-rank medians over the "
                                         "rounds (each round compared with its own reference), n is summed"},
                              {"pooled_error_pct", "(pooled mean - reference pooled mean) / reference pooled mean * 100, "
                                                   "pooled mean = sum of n * mean over rounds / sum of n"},
                              {"round_error", "mean of the per-round errors and its 95 % confidence interval, "
                                              "mean +- t(0.975, rounds - 1) * sd / sqrt(rounds), over the rounds "
                                              "with matched inputs (null with fewer than 2)"}}}};
  files::write_file(plan.out / "ic_eval.json", eval.dump(2) + "\n");
  return eval;
}

}  // namespace

nlohmann::json run_ic_eval(const EvalOptions& options) {
  const EvalPlan plan = plan_ic_eval(options);
  nlohmann::json sessions = nlohmann::json::array();
  std::string reference_source = plan.reference_source;
  std::vector<nlohmann::json> round_rows;
  // Rounds repeat the whole set in turn, so slow drift in the machine's load reaches every row alike.
  for (int round = 1; round <= options.rounds; ++round)
    round_rows.push_back(run_round(options, plan, round, sessions, reference_source));
  return write_ic_eval(options, plan, std::move(round_rows), std::move(sessions), reference_source);
}

std::string format_ic_eval(const nlohmann::json& eval) {
  auto num = [](const nlohmann::json& v, const char* f) {
    return v.is_number() ? fmt::format(fmt::runtime(f), v.get<double>()) : std::string("-");
  };
  const int rounds = eval.value("rounds", 1);
  std::string s = fmt::format("{} — RTT by driver vs reference ({}){}\n", eval.value("benchmark", ""),
                              eval.value("reference", ""),
                              rounds > 1 ? fmt::format("; medians of {} rounds, n summed", rounds) : "");
  s += fmt::format("{:<14}{:>6}{:>9}{:>9}{:>8}{:>8}{:>8}{:>8}{:>8}{:>9}{:>8}  {}\n", "driver", "n", "mean ms",
                   "err %", "p1", "p25", "p75", "p99", "KS", "W1 ms", "APM", "outcome");
  for (const auto& r : eval["rows"]) {
    std::string outcome = "-";
    if (r["state"].is_object()) {
      outcome.clear();
      for (const char* k : {"score", "hits", "laps", "kills", "resources", "deaths"})
        if (r["state"].contains(k) && r["state"][k].is_number())
          outcome += fmt::format("{}{}={:g}", outcome.empty() ? "" : " ", k, r["state"][k].get<double>());
    }
    s += fmt::format("{:<14}{:>6}{:>9}{:>9}{:>8}{:>8}{:>8}{:>8}{:>8}{:>9}{:>8}  {}\n", r["driver"].get<std::string>(),
                     r["n"].get<std::size_t>(), num(r["mean_ms"], "{:.1f}"), num(r["mean_error_pct"], "{:+.1f}"),
                     num(r["p1_ms"], "{:.1f}"), num(r["p25_ms"], "{:.1f}"), num(r["p75_ms"], "{:.1f}"),
                     num(r["p99_ms"], "{:.1f}"), num(r["ks"], "{:.3f}"), num(r["wasserstein_ms"], "{:.2f}"),
                     num(r["apm"], "{:.0f}"), outcome);
  }
  if (rounds > 1) {
    s += "pooled over the rounds (every matched input once): mean ms, err %; mean of the rounds' errors [95 % CI]\n";
    for (const auto& r : eval["rows"]) {
      const nlohmann::json ci = r.value("round_error", nlohmann::json());
      const std::string interval =
          ci.is_object() ? fmt::format("   {:+.1f} [{:+.1f}, {:+.1f}]", ci["mean_pct"].get<double>(),
                                       ci["ci95_pct"][0].get<double>(), ci["ci95_pct"][1].get<double>())
                         : std::string();
      s += fmt::format("{:<14}  {} {}{}\n", r["driver"].get<std::string>(), num(r.value("pooled_mean_ms", nlohmann::json()), "{:.2f}"),
                       num(r.value("pooled_error_pct", nlohmann::json()), "{:+.1f}"), interval);
    }
    s += "by round (mean ms, err %):\n";
    for (const auto& r : eval["rows"]) {
      std::string line;
      for (const auto& pr : r.value("per_round", nlohmann::json::array()))
        line += fmt::format("  {} {}", num(pr["mean_ms"], "{:.1f}"), num(pr["mean_error_pct"], "{:+.1f}"));
      s += fmt::format("{:<14}{}\n", r["driver"].get<std::string>(), line);
    }
  }
  return s;
}

}  // namespace pictor::ic
