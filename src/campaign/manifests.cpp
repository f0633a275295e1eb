#include "campaign/manifests.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fmt/format.h>

#include "campaign/campaign.h"
#include "core/error.h"
#include "core/files.h"
#include "core/out_dir.h"
#include "db/connection.h"

namespace pictor::campaign {

namespace {

namespace fs = std::filesystem;

// A Kubernetes name: lower-case letters, digits and '-', at most 63 characters.
std::string dns_label(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9')) out += l;
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.substr(0, 63);
}

constexpr const char* kResultsMount = "/results";

}  // namespace

std::string job_manifest(const Plan& plan, const Cell& cell, const std::string& db) {
  const KubernetesPlan& k = plan.kubernetes;
  const std::string name = dns_label(fmt::format("pictor-{}-{}", plan.name, cell.folder()));
  // The session directory lives on the results claim (or the pod's own disk without one).
  const std::string session = fmt::format("{}/{}/cells/{}/attempt-1", kResultsMount, dns_label(plan.name), cell.folder());
  std::vector<std::string> argv = cell_argv(plan, cell, "pictor", session, db);
  YAML::Emitter e;
  e << YAML::BeginMap;
  e << YAML::Key << "apiVersion" << YAML::Value << "batch/v1";
  e << YAML::Key << "kind" << YAML::Value << "Job";
  e << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << name;
  if (!k.namespace_name.empty()) e << YAML::Key << "namespace" << YAML::Value << k.namespace_name;
  e << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "pictor/campaign" << YAML::Value << dns_label(plan.name);
  e << YAML::Key << "pictor/cell" << YAML::Value << std::to_string(cell.id);
  e << YAML::Key << "pictor/benchmark" << YAML::Value << dns_label(cell.benchmark_name);
  e << YAML::Key << "pictor/adapter" << YAML::Value << dns_label(cell.adapter);
  e << YAML::EndMap << YAML::EndMap;
  e << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  // Kubernetes retries a failed pod itself: the plan's retries.
  e << YAML::Key << "backoffLimit" << YAML::Value << plan.retries;
  e << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "pictor/campaign" << YAML::Value << dns_label(plan.name);
  e << YAML::Key << "pictor/cell" << YAML::Value << std::to_string(cell.id);
  e << YAML::EndMap << YAML::EndMap;
  e << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "restartPolicy" << YAML::Value << "Never";
  if (!k.node_selector.empty()) {
    const auto eq = k.node_selector.find('=');
    e << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap << YAML::Key << k.node_selector.substr(0, eq) << YAML::Value
      << k.node_selector.substr(eq + 1) << YAML::EndMap;
  }
  e << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << "pictor";
  e << YAML::Key << "image" << YAML::Value << k.image;
  e << YAML::Key << "command" << YAML::Value << YAML::Flow << argv;
  if (plan.slurm.cpus_per_task > 0 || !plan.slurm.mem.empty()) {
    e << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "requests" << YAML::Value << YAML::BeginMap;
    if (plan.slurm.cpus_per_task > 0) e << YAML::Key << "cpu" << YAML::Value << std::to_string(plan.slurm.cpus_per_task);
    if (!plan.slurm.mem.empty()) e << YAML::Key << "memory" << YAML::Value << plan.slurm.mem + "i";
    e << YAML::EndMap << YAML::EndMap;
  }
  if (!k.results_claim.empty())
    e << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name" << YAML::Value
      << "results" << YAML::Key << "mountPath" << YAML::Value << kResultsMount << YAML::EndMap << YAML::EndSeq;
  e << YAML::EndMap << YAML::EndSeq;
  if (!k.results_claim.empty())
    e << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "results"
      << YAML::Key << "persistentVolumeClaim" << YAML::Value << YAML::BeginMap << YAML::Key << "claimName" << YAML::Value
      << k.results_claim << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  e << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
  return std::string("# Cell ") + std::to_string(cell.id) + " of Pictor campaign " + plan.name +
         ", written by pictor campaign manifests; kubectl apply -f submits it.\n" + e.c_str() + "\n";
}

ManifestResult write_manifests(const Plan& plan, const std::string& out_dir, const std::string& db) {
  if (plan.kubernetes.image.empty())
    throw UsageError(plan.file + ": the plan has no kubernetes: image: (the container image with pictor installed)");
  if (plan.two_hosts())
    throw UsageError(plan.file + ": two-host cells (slurm nodes: 2) run with the local or slurm executor; a Kubernetes Job is one pod, one host");
  if (!db::is_postgresql_url(db))
    throw UsageError("--db: give the postgresql://USER@HOST:PORT/DB every Job records into (the pods share no file)");
  const fs::path dir = claim_out_dir(out_dir, (fs::path("pictor-out") / ("k8s-" + dns_label(plan.name))).string(), false);
  ManifestResult r;
  r.dir = dir.string();
  for (const Cell& c : expand_cells(plan)) {
    files::write_file(dir / (c.folder() + ".yaml"), job_manifest(plan, c, db));
    ++r.files;
  }
  return r;
}

}  // namespace pictor::campaign
