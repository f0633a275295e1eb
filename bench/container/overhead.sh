#!/bin/bash
# What a container costs (docs/resources.md "Containers"): the same session — a built-in game over
# Xvnc with the scripted driver — run bare and with `--container podman`, ROUNDS times each,
# interleaved (bare, podman, bare, podman, …), medians of server FPS (summary.json fps_avg), client
# FPS (fps_client) and RTT (rtt_ms.mean, rtt_ms.p99), and the load average around the rounds.
# Each pictor run is its own process (tearing its container down itself); the script starts no other.
# Usage: overhead.sh BUILD_DIR ROOTFS [SECONDS=8] [ROUNDS=3] [SCENE=racing] [SIZE=640x360]
set -u
BUILD=${1:?usage: $0 BUILD_DIR ROOTFS [SECONDS] [ROUNDS] [SCENE] [SIZE]}
ROOTFS=${2:?usage: $0 BUILD_DIR ROOTFS (build it with scripts/container-rootfs.sh ROOTFS)}
SECONDS_RUN=${3:-8}
ROUNDS=${4:-3}
SCENE=${5:-racing}
SIZE=${6:-640x360}
PICTOR=$BUILD/bin/pictor
[ -x "$PICTOR" ] || { echo "build pictor in $BUILD first" >&2; exit 2; }
WORK=$(mktemp -d /tmp/pictor-container-bench.XXXXXX)

# run MODE DIR -> "fps_server fps_client rtt_mean rtt_p99"
run() {
  local mode=$1 dir=$2 extra=()
  [ "$mode" = podman ] && extra=(--container podman --rootfs "$ROOTFS")
  "$PICTOR" --quiet run --adapter xvnc --driver scripted "builtin:$SCENE" --size "$SIZE" -d "${SECONDS_RUN}s" \
    -o "$dir" "${extra[@]}" >/dev/null 2>"$dir.err" || { echo "pictor run failed: $(tail -1 "$dir.err")" >&2; echo "nan nan nan nan"; return; }
  python3 - "$dir/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = s.get("rtt_ms") or {}
print(s.get("fps_avg"), s.get("fps_client"), r.get("mean", "nan"), r.get("p99", "nan"))
PY
}

median() { sort -g | awk '{v[NR]=$1} END{ if (NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2 }'; }

echo "# builtin:$SCENE over xvnc, scripted driver, $SIZE, ${SECONDS_RUN}s sessions, $ROUNDS rounds interleaved, medians"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in bare podman; do : >"$WORK/$mode"; done
for r in $(seq "$ROUNDS"); do
  for mode in bare podman; do
    res=$(run "$mode" "$WORK/$mode-$r")
    echo "$res" >>"$WORK/$mode"
    echo "round $r $mode: fps_server fps_client rtt_mean_ms rtt_p99_ms = $res" >&2
  done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in bare podman; do
  echo "$mode: server FPS $(awk '{print $1}' "$WORK/$mode" | median), client FPS $(awk '{print $2}' "$WORK/$mode" | median)," \
       "RTT mean $(awk '{print $3}' "$WORK/$mode" | median) ms, RTT p99 $(awk '{print $4}' "$WORK/$mode" | median) ms"
done
rm -rf "$WORK"
