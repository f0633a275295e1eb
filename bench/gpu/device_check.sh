#!/usr/bin/env bash
# A short check of --render offload on a GPU machine with no display (issue 23 item 5; under five
# minutes, nothing in CI depends on it): builds Pictor's programs, then runs glxgears and
# builtin:racing offloaded to the GPU into Xvfb (--adapter local) and Xvnc with each frame-copy
# strategy, and prints per configuration the app's FPS, FC (the copy), RD (the GPU timer) and
# the RTT. Without an NVIDIA GPU (or with --software) it runs the same on Mesa's software EGL
# device (llvmpipe) and says so, so the script itself can be checked anywhere.
#
#   bench/gpu/device_check.sh [--software] [SECONDS]        e.g. bench/gpu/device_check.sh 4
#
# BUILD (default build-gpu): the build directory — configured here (RelWithDebInfo, no tests or
# benchmarks) when it has no CMakeCache.txt, else only built; DEVICE overrides the offload device
# (nvidia, an index, /dev/dri/renderD128, software); OUT the directory of the sessions.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")/.." && pwd)  # bench/: session_json.py
cd "$(dirname "$0")/../.."
SOFTWARE=0
if [ "${1:-}" = "--software" ]; then SOFTWARE=1; shift; fi
SECONDS_PER_RUN=${1:-4}
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$(mktemp -d /tmp/pictor-device-check.XXXXXX)}
mkdir -p "$OUT"
say() { echo "device_check: $*" >&2; }

# 1. Build what the runs need: pictor, the app host, the interposer, the proxy hook.
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  say "configuring $BUILD"
  # The intelligent client's libtorch part is not needed here (and often not installed).
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPICTOR_BUILD_TESTS=OFF -DPICTOR_BUILD_BENCH=OFF \
    -DPICTOR_SKIP_AREAS=ic/torch >"$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log" >&2; say "cmake failed"; exit 1; }
fi
targets=(pictor pictor-app pictor_hook)
# The proxy hook (Xvnc's stages) is an optional area: built unless the build leaves it out.
grep -q '^PICTOR_SKIP_AREAS:.*proxyhook' "$BUILD/CMakeCache.txt" || targets+=(pictor_proxyhook)
say "building ${targets[*]} in $BUILD (log $OUT/build.log)"
cmake --build "$BUILD" -j "$(nproc)" --target "${targets[@]}" >"$OUT/build.log" 2>&1 ||
  { tail -20 "$OUT/build.log" >&2; say "the build failed"; exit 1; }
PICTOR=$BUILD/bin/pictor

# 2. The device. NVIDIA's EGL is a glvnd vendor library: found through its JSON manifest in
# glvnd's directory, or, when the driver was installed elsewhere (a .run installer, a container
# with the driver mounted), named to glvnd through __EGL_VENDOR_LIBRARY_FILENAMES — with Mesa's
# beside it, so the software device stays there to compare.
find_nvidia_json() {
  local d f
  for d in /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d /usr/local/share/glvnd/egl_vendor.d \
           /usr/lib/x86_64-linux-gnu/nvidia /usr/lib64/nvidia /usr/local/nvidia /opt/nvidia /usr/share/nvidia; do
    for f in "$d"/*nvidia*.json "$d"/*/egl_vendor.d/*nvidia*.json; do
      [ -f "$f" ] && { echo "$f"; return 0; }
    done
  done
  return 1
}
DEV=${DEVICE:-}
if [ "$SOFTWARE" = 0 ] && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  say "GPU: $(nvidia-smi -L | head -1)"
  if [ ! -f /usr/share/glvnd/egl_vendor.d/10_nvidia.json ]; then
    if json=$(find_nvidia_json); then
      files=$json
      [ -f /usr/share/glvnd/egl_vendor.d/50_mesa.json ] && files=$files:/usr/share/glvnd/egl_vendor.d/50_mesa.json
      export __EGL_VENDOR_LIBRARY_FILENAMES=$files
      say "NVIDIA's EGL vendor file is not in glvnd's directory: using $__EGL_VENDOR_LIBRARY_FILENAMES"
    else
      say "no NVIDIA EGL vendor file (10_nvidia.json) found: EGL may not offer the GPU (install the driver's EGL part)"
    fi
  fi
  DEV=${DEV:-nvidia}
else
  if [ "$SOFTWARE" = 1 ]; then say "--software: Mesa's software EGL device (llvmpipe), not a GPU"
  else say "no NVIDIA GPU here (nvidia-smi absent or finds none): falling back to Mesa's software EGL device (llvmpipe)"; fi
  DEV=${DEV:-software}
fi
say "offload device '$DEV', ${SECONDS_PER_RUN}s per run, sessions in $OUT, $(uptime)"

# 3. The runs: 2 apps x 2 adapters x 3 strategies, about SECONDS + 2 s each.
for app in glxgears racing; do
  for adapter in local xvnc; do
    for copy in vgl memo async; do
      dir="$OUT/$app-$adapter-$copy"
      args=(--quiet run --adapter "$adapter" --render "offload:device=$DEV" --frame-copy "$copy" --size 1280x720
            -d "${SECONDS_PER_RUN}s" --no-resources -o "$dir")
      if [ "$app" = racing ]; then args+=(--driver "scripted:rate=4,keys=Left|Right" builtin:racing)
      else args+=(-- glxgears); fi
      timeout -k 5 $((SECONDS_PER_RUN + 60)) setsid "$PICTOR" "${args[@]}" >/dev/null 2>"$dir.err" ||
        say "$app $adapter $copy failed: $(tail -1 "$dir.err")"
    done
  done
done

# 4. The table, from each session's summary.json and hook.json.
PYTHONPATH="$BENCH_DIR${PYTHONPATH:+:$PYTHONPATH}" python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
from session_json import get, load
def num(v):
    return f"{v:.2f}" if isinstance(v, (int, float)) else "–"
print("| app | adapter | copy | device (hook.json) | renderer | FPS | FC p50 ms | FC mean ms | AS p50 ms | RD mean ms | RTT mean ms |")
print("|" + "---|" * 11)
for d in sorted(p for p in glob.glob(os.path.join(out, "*-*-*")) if os.path.isdir(p)):
    app, adapter, copy = os.path.basename(d).split("-")
    s, h, run = load(os.path.join(d, "summary.json")), load(os.path.join(d, "hook.json")), load(os.path.join(d, "run.json"))
    device = " ".join(str(x) for x in (get(h, "offload", "egl_device"), get(h, "offload", "egl_vendor")) if x) or "–"
    renderer = get(run, "gl", "gl_renderer") or get(h, "gl_renderer") or "–"
    print(f"| {app} | {adapter} | {copy} | {device} | {renderer} | {num(get(s, 'fps_avg'))} | {num(get(s, 'fc_ms', 'p50'))} "
          f"| {num(get(s, 'fc_ms', 'mean'))} | {num(get(s, 'as_ms', 'p50'))} | {num(get(s, 'gpu_ms', 'mean'))} "
          f"| {num(get(s, 'rtt_ms', 'mean'))} |")
print("\nRD is the GL timer (empty on a software device unless PICTOR_GPU_TIMING=1); RTT only with a driver (racing).")
PY
