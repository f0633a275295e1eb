#include "campaign/campaign.h"

#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <thread>

#include "campaign/executor.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "core/out_dir.h"
#include "core/time_text.h"
#include "core/units.h"
#include "db/results_store.h"
#include "runner/measure.h"

namespace pictor::campaign {

namespace {

namespace fs = std::filesystem;

std::string absolute_path(const fs::path& p) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).string() : a.string();
}

// The results of an exit status: 2 is pictor run refusing its input, which a retry only repeats.
bool worth_retrying(const AttemptEnd& e) { return !(e.exit_status && *e.exit_status == 2); }

// The last line of an attempt's log starting "pictor: " other than progress and the recorded
// line: the cause pictor run gave for its exit status.
std::string cause_in_log(const std::string& log_path) {
  std::string text;
  try {
    text = files::read_file(log_path);
  } catch (const std::exception&) {
    return "";
  }
  std::string cause;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find_first_of("\n\r", at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    if (line.rfind("pictor: ", 0) == 0 && line.find("recorded as run") == std::string::npos &&
        line.find("session directory") == std::string::npos && line.find(" s") != line.size() - 2)
      cause = line.substr(8);
    at = end + 1;
  }
  return cause.substr(0, 300);
}

// A fresh random token for one two-host attempt: 32 bytes from the kernel as hex, in a file only
// its owner reads, created anew (an old one is replaced, never reused).
void write_token_file(const std::string& path) {
  unsigned char bytes[32];
  const int in = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  const bool got = in >= 0 && ::read(in, bytes, sizeof bytes) == static_cast<ssize_t>(sizeof bytes);
  if (in >= 0) ::close(in);
  if (!got) throw RunError("cannot read a token from /dev/urandom: " + std::string(std::strerror(errno)));
  std::string hex;
  for (const unsigned char b : bytes) hex += fmt::format("{:02x}", b);
  hex += "\n";
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw RunError(fmt::format("cannot create the token file {}: {}", path, std::strerror(errno)));
  const bool wrote = ::write(fd, hex.data(), hex.size()) == static_cast<ssize_t>(hex.size());
  ::close(fd);
  if (!wrote) throw RunError(fmt::format("cannot write the token file {}", path));
}

class CampaignRun {
 public:
  CampaignRun(const Plan& plan, const CampaignOptions& o, std::string dir, std::string db)
      : plan_(plan), o_(o), dir_(std::move(dir)), db_(std::move(db)) {}

  CampaignResult run(std::vector<Cell> cells, Executor& executor, db::ResultsStore& store) {
    cells_ = std::move(cells);
    for (std::size_t i = 0; i < cells_.size(); ++i) queue_.push_back(i);
    const runner::InterruptGuard guard;
    const std::int64_t start_ns = monotonic_ns();
    std::map<int, std::size_t> running;  // cell id → index
    int sig = 0;
    while (!queue_.empty() || !running.empty()) {
      if ((sig = runner::interrupt_signal())) break;
      while (!queue_.empty() && running.size() < executor.slots()) {
        const std::size_t i = queue_.front();
        queue_.pop_front();
        if (start_attempt(cells_[i], executor)) running[cells_[i].id] = i;
        write_tables();
      }
      const std::vector<AttemptEnd> ended = executor.poll();
      for (const AttemptEnd& e : ended) {
        const auto it = running.find(e.cell);
        if (it == running.end()) continue;
        finish_attempt(cells_[it->second], e, store);
        running.erase(it);
      }
      if (!ended.empty()) write_tables();
      else sleep_for(executor.poll_interval_s());
    }
    CampaignResult r;
    r.dir = dir_;
    if (sig) {
      executor.cancel_all();
      for (auto& [id, i] : running) {
        cells_[i].state = "interrupted";
        attempts_.push_back({cells_[i].id, cells_[i].attempts, cells_[i].job_id, "interrupted", "", std::nullopt, std::nullopt,
                             cells_[i].session_dir, std::nullopt, "the campaign was interrupted"});
      }
      r.exit_code = 128 + sig;
      r.failure = fmt::format("campaign interrupted (signal {}); results so far are in {}", sig, dir_);
    }
    r.wall_s = static_cast<double>(monotonic_ns() - start_ns) * 1e-9;
    find_late_runs(store);
    write_tables();
    r.cells = cells_;
    std::size_t failed = 0;
    for (const Cell& c : cells_) failed += c.state == "failed";
    if (!sig && failed)
      r.exit_code = 1, r.failure = fmt::format("{} of {} cells failed; see {}/{}", failed, cells_.size(), dir_, kCellsCsv);
    return r;
  }

 private:
  // False when the executor could not start it (sbatch refused the job): the attempt is recorded
  // as failed, and the cell retried or failed as for any other failure.
  bool start_attempt(Cell& c, Executor& executor) {
    ++c.attempts;
    const fs::path cell_dir = fs::path(dir_) / "cells" / c.folder();
    fs::create_directories(cell_dir);
    AttemptSpec a;
    a.cell = c.id;
    a.attempt = c.attempts;
    a.job_name = fmt::format("pictor-{}-{:03d}", plan_.name.substr(0, 40), c.id);
    a.cell_dir = cell_dir.string();
    a.session_dir = (cell_dir / fmt::format("attempt-{}", c.attempts)).string();
    a.log_path = (cell_dir / fmt::format("attempt-{}.log", c.attempts)).string();
    a.argv = cell_argv(plan_, c, o_.pictor_bin, a.session_dir, db_);
    if (plan_.two_hosts()) {
      a.two_hosts = true;
      a.token_path = (cell_dir / fmt::format("attempt-{}.token", c.attempts)).string();
      a.serve_log_path = (cell_dir / fmt::format("attempt-{}.serve.log", c.attempts)).string();
      a.serve_work_dir = (cell_dir / fmt::format("attempt-{}.serve", c.attempts)).string();
    }
    c.session_dir = a.session_dir;
    c.exit_status.reset();
    c.wall_s.reset();
    c.run_id.reset();
    c.note.clear();
    c.job_id.clear();
    std::string refused;
    try {
      if (a.two_hosts) write_token_file(a.token_path);
      c.job_id = executor.start(a);
      c.state = "running";
    } catch (const RunError& e) {
      refused = e.what();
    }
    if (!o_.quiet)
      std::fprintf(stderr, "pictor: campaign cell %d/%zu %s attempt %d%s\n", c.id, cells_.size(), c.folder().c_str(), c.attempts,
                   c.job_id.empty() ? "" : (" (job " + c.job_id + ")").c_str());
    if (refused.empty()) return true;
    AttemptEnd end;
    end.cell = c.id;
    end.note = refused;
    attempt_ended(c, end, nullptr);
    return false;
  }

  void finish_attempt(Cell& c, const AttemptEnd& e, db::ResultsStore& store) { attempt_ended(c, e, &store); }

  void attempt_ended(Cell& c, const AttemptEnd& e, db::ResultsStore* store) {
    c.exit_status = e.exit_status;
    c.wall_s = e.wall_s;
    try {
      if (store) c.run_id = store->id_of_dir(absolute_path(c.session_dir));
    } catch (const db::StoreError& err) {
      c.note = std::string("results database: ") + err.what();
    }
    const bool ok = e.exit_status && *e.exit_status == 0 && (e.scheduler_state.empty() || e.scheduler_state == "COMPLETED");
    std::string why = e.note;
    if (!ok && why.empty() && e.exit_status) {
      const std::string cause = cause_in_log((fs::path(c.session_dir).parent_path() / fmt::format("attempt-{}.log", c.attempts)).string());
      why = fmt::format("exit {}{}", *e.exit_status, cause.empty() ? "" : ": " + cause);
    }
    if (!ok && why.empty()) why = e.scheduler_state.empty() ? "ended without an exit status" : e.scheduler_state;
    Attempt a{c.id, c.attempts, c.job_id, ok ? "ok" : "failed", e.scheduler_state, e.exit_status, e.wall_s, c.session_dir, c.run_id,
              ok ? "" : why};
    attempts_.push_back(a);
    if (ok) {
      c.state = "ok";
      if (c.note.rfind("results database", 0) != 0) c.note.clear();
    } else if (c.attempts <= plan_.retries && worth_retrying(e)) {
      c.state = "pending";
      c.note = fmt::format("attempt {} failed ({}); retrying", c.attempts, why);
      queue_.push_back(static_cast<std::size_t>(&c - cells_.data()));
    } else {
      c.state = "failed";
      c.note = why;
    }
    if (!o_.quiet)
      std::fprintf(stderr, "pictor: campaign cell %d attempt %d %s%s\n", c.id, c.attempts, ok ? "ok" : "failed",
                   ok ? "" : (": " + why).c_str());
  }

  // A cancelled job's state changes at once while its pictor run still tears down and records the
  // session: the attempts without a run id are looked up again once every job has ended.
  void find_late_runs(db::ResultsStore& store) {
    const auto lookup = [&](const std::string& dir) -> std::optional<std::int64_t> {
      try {
        return store.id_of_dir(absolute_path(dir));
      } catch (const db::StoreError&) {
        return std::nullopt;
      }
    };
    for (Attempt& a : attempts_)
      if (!a.run_id && !a.session_dir.empty()) a.run_id = lookup(a.session_dir);
    for (Cell& c : cells_)
      if (!c.run_id && !c.session_dir.empty()) c.run_id = lookup(c.session_dir);
  }

  void write_tables() {
    files::write_file(fs::path(dir_) / kCellsCsv, cells_csv(cells_));
    files::write_file(fs::path(dir_) / kAttemptsCsv, attempts_csv(attempts_));
  }

  static void sleep_for(double s) { std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(s * 1000))); }

  const Plan& plan_;
  const CampaignOptions& o_;
  std::string dir_, db_;
  std::vector<Cell> cells_;
  std::vector<Attempt> attempts_;
  std::deque<std::size_t> queue_;
};

std::string slug_name(const std::string& name) {
  std::string out;
  for (const char c : name) out += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-') ? c : '-';
  return out.substr(0, 40);
}

}  // namespace

std::vector<std::string> cell_argv(const Plan& plan, const Cell& cell, const std::string& pictor_bin, const std::string& session_dir,
                                   const std::string& db) {
  const PlanBenchmark& b = plan.benchmarks.at(cell.benchmark);
  std::vector<std::string> argv{pictor_bin, "run", "--duration", fmt::format("{:g}s", b.duration_s.value_or(plan.duration_s)), "--size",
                                b.size.value_or(plan.size), "--adapter", cell.adapter};
  if (cell.net != "none") argv.insert(argv.end(), {"--net", cell.net});
  if (cell.instances > 1) argv.insert(argv.end(), {"--instances", std::to_string(cell.instances)});
  if (const std::string driver = b.driver.value_or(plan.driver); !driver.empty()) argv.insert(argv.end(), {"--driver", driver});
  if (!plan.resources) argv.push_back("--no-resources");
  argv.insert(argv.end(), {"--out", session_dir, "--db", db});
  const std::vector<std::string> target = target_words(b);
  argv.insert(argv.end(), target.begin(), target.end());
  return argv;
}

std::vector<std::string> serve_argv(const AttemptSpec& a, const std::string& listen) {
  // --max-sessions 1: the agent ends with its one session; the executor still stops it by PID.
  return {a.argv.at(0), "serve", "--listen", listen, "--token-file", a.token_path, "--work-dir", a.serve_work_dir,
          "--max-sessions", "1"};
}

std::vector<std::string> client_argv(const AttemptSpec& a, const std::string& server) {
  std::vector<std::string> argv = a.argv;
  argv.insert(argv.begin() + 2, {"--server", server, "--token-file", a.token_path});
  return argv;
}

std::vector<Cell> load_cells(const std::string& dir) {
  const fs::path path = fs::path(dir) / kCellsCsv;
  if (!fs::is_regular_file(path)) throw UsageError(fmt::format("{}: not a campaign directory (no {})", dir, kCellsCsv));
  return parse_cells_csv(files::read_input_file(path.string()), path.string());
}

CampaignResult run_campaign(const Plan& plan, const std::string& plan_text, const CampaignOptions& o) {
  if (o.executor != "local" && o.executor != "slurm")
    throw UsageError(fmt::format("--executor '{}': give local or slurm", o.executor));
  std::unique_ptr<Executor> executor =
      o.executor == "slurm" ? make_slurm_executor(plan.slurm, plan.name) : make_local_executor();
  const std::string dir =
      absolute_path(claim_out_dir(o.out_dir, (fs::path("pictor-out") / ("campaign-" + local_stamp_now() + "-" + slug_name(plan.name))).string(),
                             o.force));
  const std::string db = o.db.empty() ? (fs::path(dir) / "results.db").string()
                                      : (db::is_postgresql_url(o.db) ? o.db : absolute_path(o.db));
  std::unique_ptr<db::ResultsStore> store;
  try {
    store = db::open_store(db);
  } catch (const db::StoreError& e) {
    throw UsageError(std::string("--db: ") + e.what());
  }
  CampaignOptions opts = o;
  if (opts.pictor_bin.empty()) opts.pictor_bin = absolute_path("/proc/self/exe");
  files::write_file(fs::path(dir) / kPlanCopy, plan_text);
  const std::vector<Cell> cells = expand_cells(plan);
  nlohmann::json doc{{"schema", 1},
                     {"name", plan.name},
                     {"plan", absolute_path(plan.file)},
                     {"executor", o.executor},
                     {"db", store->location()},
                     {"pictor", opts.pictor_bin},
                     {"command_line", o.argv},
                     {"cells", cells.size()},
                     {"start_time", iso_utc_now()}};
  files::write_file(fs::path(dir) / kCampaignJson, doc.dump(2) + "\n");
  if (!o.quiet)
    std::fprintf(stderr, "pictor: campaign %s: %zu cells through the %s executor into %s\n", plan.name.c_str(), cells.size(),
                 o.executor.c_str(), dir.c_str());
  CampaignRun run(plan, opts, dir, db);
  CampaignResult r = run.run(cells, *executor, *store);
  doc["end_time"] = iso_utc_now();
  doc["wall_s"] = r.wall_s;
  doc["exit_code"] = r.exit_code;
  files::write_file(fs::path(dir) / kCampaignJson, doc.dump(2) + "\n");
  return r;
}

}  // namespace pictor::campaign
