// A campaign's plan (docs/scale-out.md): benchmarks × adapters × --net settings × instance counts
// × repeats, the options every cell shares and the scheduler's constraints, read from YAML and
// checked as `pictor run` checks its command line before anything runs.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace pictor::campaign {

// One benchmark of the plan: a built-in scene or a profile (`app`), or a command, with the options
// that override the plan's for its cells.
struct PlanBenchmark {
  std::string name;                    // unique; default: the scene, profile or program name
  std::string app;                     // "builtin:racing:seed=1", "profile:neverball"; empty for a command
  std::vector<std::string> command;    // the program and its arguments; empty for an app
  std::optional<std::string> driver;   // "" means none (driver: none)
  std::optional<double> duration_s;
  std::optional<std::string> size;
  int line = 0;                        // where it is in the plan, for errors
};

// One value of an axis with the line it was written on.
struct AxisValue {
  std::string text;
  int line = 0;
};

// Where one half of a two-host cell runs (`slurm: server:` / `client:`): given for either half,
// the cell is a heterogeneous job, one component per half.
struct SlurmComponent {
  std::string partition;               // empty: the job's (SlurmPlan::partition)
  std::string constraint;              // empty: the job's (SlurmPlan::constraint)
};

// What `sbatch` is asked for, per cell (each cell is one job).
struct SlurmPlan {
  std::string partition;               // --partition; empty: the cluster's default
  int nodes = 1;                       // 1: a one-host cell; 2: a two-host cell (pictor serve + pictor run --server)
  SlurmComponent server;               // two hosts: component 0, the render host (pictor serve)
  SlurmComponent client;               // two hosts: component 1, the client host (pictor run --server)
  bool share_node = false;             // two hosts: both halves' job steps on one node (--nodes=1)
  std::string constraint;              // --constraint (node features: "gpu&h200")
  std::string time_limit;              // --time (Slurm's forms: "10", "00:10:00", "1-00:00:00")
  int cpus_per_task = 0;               // --cpus-per-task; 0: not asked
  std::string mem;                     // --mem ("4G"); empty: not asked
  std::string account;                 // --account
  std::vector<std::string> extra;      // further sbatch options, passed as they are
  double poll_s = 2;                   // how often squeue/scontrol are asked

  bool has_components() const {
    return !server.partition.empty() || !server.constraint.empty() || !client.partition.empty() || !client.constraint.empty();
  }
};

// What a Kubernetes Job per cell runs on (`pictor campaign manifests`).
struct KubernetesPlan {
  std::string image;                   // a container image with pictor installed
  std::string namespace_name;          // metadata.namespace; empty: none written
  std::string node_selector;           // "key=value" for spec.nodeSelector; empty: none
  std::string results_claim;           // a PersistentVolumeClaim mounted at the campaign directory
};

struct Plan {
  std::string file;                    // the plan's path, as given
  std::string name;                    // default: the file's stem
  std::vector<PlanBenchmark> benchmarks;
  std::vector<AxisValue> adapters;     // default: local
  std::vector<AxisValue> nets;         // default: none
  std::vector<int> instances;          // default: 1
  std::vector<int> instances_lines;    // where each instance count was written
  int repeats = 1;
  int retries = 0;                     // attempts after the first one for a failed cell
  double duration_s = 10;
  std::string size = "1280x720";
  std::string driver;                  // every benchmark's, unless its own says otherwise
  bool resources = true;               // false: pictor run --no-resources
  SlurmPlan slurm;
  KubernetesPlan kubernetes;

  // `slurm: {nodes: 2}`: every cell is one session across two hosts, its server half under
  // `pictor serve`, its client under `pictor run --server` (docs/scale-out.md "Two-host cells").
  bool two_hosts() const { return slurm.nodes == 2; }
  // A two-host cell whose halves differ in partition or constraint: a heterogeneous job. Else one
  // job of two tasks, each half a job step of one task (docs/scale-out.md "Two-host cells").
  bool heterogeneous() const { return two_hosts() && slurm.has_components(); }
};

inline constexpr int kMaxRepeats = 1000;
inline constexpr int kMaxRetries = 20;
// More cells than this is a typo in an axis, not a campaign.
inline constexpr std::size_t kMaxCells = 100000;

// Reads and checks the plan: YAML syntax, every key known, every benchmark, adapter, --net and
// instance count as `pictor run` would take it (runner::plan_session). Throws UsageError
// "FILE:LINE: cause" for the first problem.
Plan parse_plan(const std::string& text, const std::string& file);
Plan load_plan(const std::string& path);

// The `pictor run` target words of a benchmark: {"builtin:racing"} or {"--", "prog", "arg"}.
std::vector<std::string> target_words(const PlanBenchmark& b);

}  // namespace pictor::campaign
