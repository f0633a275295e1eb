// The Kubernetes equivalent of the Slurm executor (docs/scale-out.md): one batch/v1 Job manifest
// per cell, running the cell's `pictor run` in the plan's image and recording into a shared
// database. Pictor writes the manifests; `kubectl apply` submits them and Kubernetes retries them.
#pragma once
#include <string>

#include "campaign/cells.h"
#include "campaign/plan.h"

namespace pictor::campaign {

// The Job of one cell: metadata (name, namespace, labels campaign/cell/benchmark/adapter),
// backoffLimit = the plan's retries, restartPolicy Never, the plan's node selector, the
// container running cell_argv with the image's pictor, the results claim mounted at /results.
std::string job_manifest(const Plan& plan, const Cell& cell, const std::string& db);

struct ManifestResult {
  std::string dir;
  std::size_t files = 0;
};

// Writes OUT/NNN-….yaml for every cell. Throws UsageError when the plan has no kubernetes.image,
// or `db` is not a postgresql:// URL (every Job's pod must reach the same database).
ManifestResult write_manifests(const Plan& plan, const std::string& out_dir, const std::string& db);

}  // namespace pictor::campaign
