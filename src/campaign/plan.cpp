#include "campaign/plan.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <set>

#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "net/spec.h"
#include "runner/remote_agent.h"
#include "runner/session_group.h"
#include "runner/session_plan.h"
#include "suite/suite_runner.h"

namespace pictor::campaign {

namespace {

namespace fs = std::filesystem;

// yaml-cpp counts lines from 0, and gives -1 for a node of no place (the empty document's): line 1.
int line_of(int yaml_line) { return std::max(yaml_line, 0) + 1; }
int line_of(const YAML::Node& n) { return line_of(n.Mark().line); }

// The cause as one line: the plan's own text quoted in it (a key, a value, a name) may hold a
// quoted "\n" or any control byte, written \xNN here; the rest (UTF-8 too) stays as it is.
std::string one_line(const std::string& cause) {
  std::string out;
  for (const char c : cause) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) out += fmt::format("\\x{:02x}", b);
    else out += c;
  }
  return out;
}

struct PlanError {
  int line;
  std::string cause;
};

[[noreturn]] void fail(const YAML::Node& n, const std::string& cause) { throw PlanError{line_of(n), cause}; }

std::string scalar(const YAML::Node& n, const std::string& key) {
  if (!n.IsScalar()) fail(n, fmt::format("'{}' must be a single value", key));
  return n.as<std::string>();
}

int integer(const YAML::Node& n, const std::string& key, int min, int max) {
  const std::string text = scalar(n, key);
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v < min || v > max)
    fail(n, fmt::format("{}: '{}' is not a whole number from {} to {}", key, text, min, max));
  return static_cast<int>(v);
}

bool flag(const YAML::Node& n, const std::string& key) {
  const std::string text = scalar(n, key);
  if (text == "true" || text == "on" || text == "yes") return true;
  if (text == "false" || text == "off" || text == "no") return false;
  fail(n, fmt::format("{}: '{}' is not true or false", key, text));
}

double duration(const YAML::Node& n, const std::string& key) {
  try {
    return parse_duration_s(scalar(n, key), key, runner::kMinSessionS, runner::kMaxSessionS);
  } catch (const UsageError& e) {
    fail(n, e.what());
  }
}

std::string size_text(const YAML::Node& n, const std::string& key) {
  const std::string text = scalar(n, key);
  try {
    parse_size(text);
  } catch (const UsageError& e) {
    fail(n, std::string(key) + ": " + e.what());
  }
  return text;
}

// A value or a list of values: "adapters: xvnc" and "adapters: [local, xvnc]" alike.
std::vector<YAML::Node> items(const YAML::Node& n, const std::string& key) {
  std::vector<YAML::Node> out;
  if (n.IsSequence()) {
    for (const YAML::Node& item : n) out.push_back(item);
    if (out.empty()) fail(n, fmt::format("'{}' is empty", key));
  } else if (n.IsScalar()) {
    out.push_back(n);
  } else {
    fail(n, fmt::format("'{}' must be a value or a list", key));
  }
  return out;
}

void check_keys(const YAML::Node& map, const std::string& owner, const std::set<std::string>& known) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (known.count(key)) continue;
    std::string names;
    for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
    fail(it->first, fmt::format("{} has no key '{}' (keys: {})", owner, key, names));
  }
}

PlanBenchmark read_benchmark(const YAML::Node& n) {
  PlanBenchmark b;
  b.line = line_of(n);
  if (n.IsScalar()) {
    b.app = n.as<std::string>();
  } else if (n.IsMap()) {
    check_keys(n, "a benchmark", {"app", "command", "name", "driver", "duration", "size"});
    if (n["app"] && n["command"]) fail(n, "a benchmark has an app or a command, not both");
    if (n["app"]) b.app = scalar(n["app"], "app");
    if (n["command"])
      for (const YAML::Node& word : items(n["command"], "command")) b.command.push_back(scalar(word, "command"));
    if (n["name"]) b.name = scalar(n["name"], "name");
    if (n["driver"]) b.driver = scalar(n["driver"], "driver");
    if (n["duration"]) b.duration_s = duration(n["duration"], "duration");
    if (n["size"]) b.size = size_text(n["size"], "size");
  } else {
    fail(n, "a benchmark is builtin:SCENE, profile:NAME or a map with app or command");
  }
  if (b.driver && *b.driver == "none") b.driver = "";
  if (b.app.empty() && b.command.empty()) fail(n, "a benchmark needs an app (builtin:SCENE, profile:NAME) or a command");
  if (!b.app.empty() && b.app.rfind("builtin:", 0) != 0 && b.app.rfind("profile:", 0) != 0)
    fail(n, fmt::format("benchmark '{}': the app must be builtin:SCENE[:options] or profile:NAME (a program: command: [...])", b.app));
  if (b.name.empty()) {
    if (!b.command.empty()) b.name = fs::path(b.command[0]).filename().string();
    else {
      const std::string target = b.app.substr(b.app.find(':') + 1);
      b.name = b.app.rfind("profile:", 0) == 0 ? fs::path(target).stem().string() : target.substr(0, target.find(':'));
    }
  }
  return b;
}

SlurmComponent read_component(const YAML::Node& n, const std::string& key) {
  if (!n.IsMap()) fail(n, fmt::format("'{}' must be a map (partition, constraint)", key));
  check_keys(n, key, {"partition", "constraint"});
  SlurmComponent c;
  if (n["partition"]) c.partition = scalar(n["partition"], "partition");
  if (n["constraint"]) c.constraint = scalar(n["constraint"], "constraint");
  return c;
}

void read_slurm(const YAML::Node& n, SlurmPlan& s) {
  if (!n.IsMap()) fail(n, "'slurm' must be a map (partition, nodes, constraint, time, …)");
  check_keys(n, "slurm",
             {"partition", "nodes", "server", "client", "share_node", "constraint", "time", "cpus_per_task", "mem", "account", "sbatch_args", "poll"});
  if (n["partition"]) s.partition = scalar(n["partition"], "partition");
  if (n["nodes"]) {
    const std::string text = scalar(n["nodes"], "nodes");
    // A cell is one session: on one host, or across two (docs/scale-out.md "Two-host cells").
    if (text != "1" && text != "2")
      fail(n["nodes"], fmt::format("slurm nodes: '{}': a cell runs on 1 host or on 2 (pictor serve and pictor run --server)", text));
    s.nodes = text == "2" ? 2 : 1;
  }
  for (const char* key : {"server", "client"})
    if (n[key]) {
      if (s.nodes != 2) fail(n[key], fmt::format("slurm {}: is a two-host cell's component (give nodes: 2)", key));
      (std::string(key) == "server" ? s.server : s.client) = read_component(n[key], std::string("slurm ") + key);
    }
  if (n["share_node"]) {
    if (s.nodes != 2) fail(n["share_node"], "slurm share_node: puts a two-host cell's two halves on one node (give nodes: 2)");
    s.share_node = flag(n["share_node"], "share_node");
    // One job whose two steps share its node; a heterogeneous job's components are placed apart.
    if (s.share_node && s.has_components())
      fail(n["share_node"], "slurm share_node: true runs both halves as steps of one job on one node; server: and client: "
                            "place them as a heterogeneous job's components (give one or the other)");
  }
  if (n["constraint"]) s.constraint = scalar(n["constraint"], "constraint");
  if (n["time"]) s.time_limit = scalar(n["time"], "time");
  if (n["cpus_per_task"]) s.cpus_per_task = integer(n["cpus_per_task"], "cpus_per_task", 1, 4096);
  if (n["mem"]) s.mem = scalar(n["mem"], "mem");
  if (n["account"]) s.account = scalar(n["account"], "account");
  if (n["sbatch_args"])
    for (const YAML::Node& a : items(n["sbatch_args"], "sbatch_args")) {
      const std::string arg = scalar(a, "sbatch_args");
      if (arg.rfind("--", 0) != 0) fail(a, fmt::format("sbatch_args: '{}' is not an sbatch option (--NAME=VALUE)", arg));
      s.extra.push_back(arg);
    }
  if (n["poll"]) {
    try {
      s.poll_s = parse_duration_s(scalar(n["poll"], "poll"), "poll", 0.1, 600);
    } catch (const UsageError& e) {
      fail(n["poll"], e.what());
    }
  }
}

void read_kubernetes(const YAML::Node& n, KubernetesPlan& k) {
  if (!n.IsMap()) fail(n, "'kubernetes' must be a map (image, namespace, node_selector, results_claim)");
  check_keys(n, "kubernetes", {"image", "namespace", "node_selector", "results_claim"});
  if (n["image"]) k.image = scalar(n["image"], "image");
  if (n["namespace"]) k.namespace_name = scalar(n["namespace"], "namespace");
  if (n["node_selector"]) {
    k.node_selector = scalar(n["node_selector"], "node_selector");
    if (k.node_selector.find('=') == std::string::npos) fail(n["node_selector"], "node_selector is KEY=VALUE");
  }
  if (n["results_claim"]) k.results_claim = scalar(n["results_claim"], "results_claim");
}

// The session one cell would run, as `pictor run` builds it from its command line.
runner::RunOptions session_of(const Plan& p, const PlanBenchmark& b, const std::string& adapter, const std::string& net) {
  runner::RunOptions o;
  o.duration_s = b.duration_s.value_or(p.duration_s);
  o.size = parse_size(b.size.value_or(p.size));
  o.driver = b.driver.value_or(p.driver);
  o.adapter = adapter;
  o.net = net == "none" ? "" : net;
  o.resources = p.resources;
  if (b.app.rfind("builtin:", 0) == 0) o.builtin = b.app.substr(8);
  else if (b.app.rfind("profile:", 0) == 0) suite::apply_profile_target(b.app.substr(8), o);
  else o.command = b.command;
  return o;
}

// `pictor run`'s own checks (runner::plan_session) on one combination; the cause or "".
std::string run_check(const Plan& p, const PlanBenchmark& b, const std::string& adapter, const std::string& net) {
  try {
    runner::plan_session(session_of(p, b, adapter, net));
  } catch (const UsageError& e) {
    return e.what();
  } catch (const RunError& e) {
    return e.what();
  }
  return "";
}

Plan read_plan(const YAML::Node& root, const std::string& file) {
  Plan p;
  p.file = file;
  p.name = fs::path(file).stem().string();
  if (!root.IsMap()) fail(root, "a plan is a map (benchmarks, adapters, net, instances, repeats, …)");
  check_keys(root, "the plan",
             {"name", "benchmarks", "adapters", "net", "instances", "repeats", "retries", "duration", "size", "driver",
              "resources", "slurm", "kubernetes"});
  if (root["name"]) p.name = scalar(root["name"], "name");
  if (root["duration"]) p.duration_s = duration(root["duration"], "duration");
  if (root["size"]) p.size = size_text(root["size"], "size");
  if (root["driver"]) p.driver = scalar(root["driver"], "driver") == "none" ? "" : root["driver"].as<std::string>();
  if (root["resources"]) p.resources = flag(root["resources"], "resources");
  if (root["repeats"]) p.repeats = integer(root["repeats"], "repeats", 1, kMaxRepeats);
  if (root["retries"]) p.retries = integer(root["retries"], "retries", 0, kMaxRetries);
  if (root["slurm"]) read_slurm(root["slurm"], p.slurm);
  if (root["kubernetes"]) read_kubernetes(root["kubernetes"], p.kubernetes);
  if (!root["benchmarks"]) fail(root, "the plan has no 'benchmarks'");
  std::set<std::string> names;
  for (const YAML::Node& n : items(root["benchmarks"], "benchmarks")) {
    PlanBenchmark b = read_benchmark(n);
    if (!names.insert(b.name).second) fail(n, fmt::format("two benchmarks named '{}' (give one a name:)", b.name));
    p.benchmarks.push_back(std::move(b));
  }
  if (root["adapters"])
    for (const YAML::Node& n : items(root["adapters"], "adapters")) p.adapters.push_back({scalar(n, "adapters"), line_of(n)});
  else p.adapters.push_back({"local", line_of(root)});
  if (root["net"]) {
    for (const YAML::Node& n : items(root["net"], "net")) {
      const std::string text = n.IsNull() ? "none" : scalar(n, "net");
      try {
        p.nets.push_back({net::to_string(net::parse_net_spec(text == "none" ? "" : text)), line_of(n)});
      } catch (const UsageError& e) {
        fail(n, e.what());
      }
    }
  } else {
    p.nets.push_back({"none", line_of(root)});
  }
  if (root["instances"])
    for (const YAML::Node& n : items(root["instances"], "instances")) {
      p.instances.push_back(integer(n, "instances", 1, runner::kMaxInstances));
      p.instances_lines.push_back(line_of(n));
    }
  else p.instances.push_back(1), p.instances_lines.push_back(line_of(root));
  const std::size_t cells = p.benchmarks.size() * p.adapters.size() * p.nets.size() * p.instances.size() *
                            static_cast<std::size_t>(p.repeats);
  if (cells > kMaxCells) fail(root, fmt::format("the plan expands to {} cells (at most {})", cells, kMaxCells));
  return p;
}

// A two-host cell is `pictor run --server`: what that refuses (an adapter other than xvnc, x11vnc
// or stream over TCP, --instances) is refused here, on the adapter's line or the instance count's.
void check_two_hosts(const Plan& p) {
  for (const AxisValue& a : p.adapters) {
    try {
      runner::check_two_host_adapter(session_of(p, p.benchmarks.front(), a.text, p.nets[0].text));
    } catch (const UsageError& e) {
      throw PlanError{a.line, fmt::format("adapter '{}' in a two-host cell (slurm nodes: 2): {}", a.text, e.what())};
    }
  }
  for (std::size_t i = 0; i < p.instances.size(); ++i)
    if (p.instances[i] != 1)
      throw PlanError{p.instances_lines[i], fmt::format("instances {}: a two-host cell (slurm nodes: 2) runs one session "
                                                        "(pictor run --server cannot be combined with --instances)",
                                                        p.instances[i])};
}

// Every benchmark, adapter and --net setting through pictor run's checks: each benchmark on the
// first adapter and network, each adapter and network with the first benchmark (so a cause lands
// on its own line), then every combination.
void check_runs(const Plan& p) {
  const PlanBenchmark& first = p.benchmarks.front();
  for (const PlanBenchmark& b : p.benchmarks)
    if (const std::string c = run_check(p, b, p.adapters[0].text, p.nets[0].text); !c.empty())
      throw PlanError{b.line, fmt::format("benchmark '{}': {}", b.name, c)};
  for (const AxisValue& a : p.adapters)
    if (const std::string c = run_check(p, first, a.text, p.nets[0].text); !c.empty())
      throw PlanError{a.line, fmt::format("adapter '{}': {}", a.text, c)};
  for (const AxisValue& n : p.nets)
    if (const std::string c = run_check(p, first, p.adapters[0].text, n.text); !c.empty())
      throw PlanError{n.line, fmt::format("net '{}': {}", n.text, c)};
  if (p.two_hosts()) check_two_hosts(p);
  for (const PlanBenchmark& b : p.benchmarks)
    for (const AxisValue& a : p.adapters)
      for (const AxisValue& n : p.nets)
        if (const std::string c = run_check(p, b, a.text, n.text); !c.empty())
          throw PlanError{b.line, fmt::format("benchmark '{}' with adapter '{}' and net '{}': {}", b.name, a.text, n.text, c)};
}

}  // namespace

std::vector<std::string> target_words(const PlanBenchmark& b) {
  if (!b.app.empty()) return {b.app};
  std::vector<std::string> words{"--"};
  words.insert(words.end(), b.command.begin(), b.command.end());
  return words;
}

Plan parse_plan(const std::string& text, const std::string& file) {
  try {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      throw PlanError{line_of(e.mark.line), "not YAML: " + e.msg};
    }
    Plan p = read_plan(root, file);
    check_runs(p);
    return p;
  } catch (const PlanError& e) {
    throw UsageError(fmt::format("{}:{}: {}", file, e.line, one_line(e.cause)));
  } catch (const YAML::Exception& e) {
    throw UsageError(fmt::format("{}:{}: {}", file, line_of(e.mark.line), one_line(e.msg)));
  }
}

Plan load_plan(const std::string& path) { return parse_plan(files::read_input_file(path), path); }

}  // namespace pictor::campaign
