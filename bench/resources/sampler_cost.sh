#!/bin/bash
# The resource sampler's own cost: the same built-in scene run with --no-resources, with the
# default 100 ms sampler and with a 10 ms one, ROUNDS times each, interleaved (off, 100ms, 10ms,
# off, …), medians of the app's FPS (summary.json fps_avg) and of the sampler thread's CPU per
# sample (summary.json resources.sampler.cpu_per_sample_ms, from its own rows in resources.csv).
# glibc's heap trimming is held off on both sides so allocator noise does not differ between them.
# Usage: sampler_cost.sh BUILD_DIR [SECONDS=6] [ROUNDS=5] [SCENE=spin:objects=200] [ADAPTER=local]
set -u
BUILD=${1:?usage: $0 BUILD_DIR [SECONDS] [ROUNDS] [SCENE] [ADAPTER]}
SECONDS_RUN=${2:-6}
ROUNDS=${3:-5}
SCENE=${4:-spin:objects=200}
ADAPTER=${5:-local}
PICTOR=$BUILD/bin/pictor
[ -x "$PICTOR" ] || { echo "build pictor in $BUILD first" >&2; exit 2; }
export GLIBC_TUNABLES=glibc.malloc.trim_threshold=1073741824
WORK=$(mktemp -d /tmp/pictor-sampler-bench.XXXXXX)

# run MODE DIR -> "fps cpu_ms_per_sample samples"
run() {
  local mode=$1 dir=$2 extra=()
  case $mode in
    off) extra=(--no-resources) ;;
    100ms|10ms) extra=(--sample-interval "$mode") ;;
  esac
  "$PICTOR" --quiet run --adapter "$ADAPTER" "builtin:$SCENE" --size 640x360 -d "${SECONDS_RUN}s" -o "$dir" "${extra[@]}" \
    >/dev/null 2>"$dir.err" || { echo "pictor run failed: $(tail -1 "$dir.err")" >&2; echo "nan nan 0"; return; }
  python3 - "$dir/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = s.get("resources", {}).get("sampler", {})
print(s.get("fps_avg"), r.get("cpu_per_sample_ms", "nan"), r.get("samples", 0))
PY
}

median() { sort -g | awk '{v[NR]=$1} END{ if (NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2 }'; }

echo "# builtin:$SCENE on $ADAPTER, ${SECONDS_RUN}s sessions, $ROUNDS rounds interleaved, medians"
for mode in off 100ms 10ms; do : >"$WORK/$mode"; done
for r in $(seq "$ROUNDS"); do
  for mode in off 100ms 10ms; do
    res=$(run "$mode" "$WORK/$mode-$r")
    echo "$res" >>"$WORK/$mode"
    echo "round $r $mode: fps cpu_ms_per_sample samples = $res" >&2
  done
done
off=$(awk '{print $1}' "$WORK/off" | median)
for mode in off 100ms 10ms; do
  fps=$(awk '{print $1}' "$WORK/$mode" | median)
  cpu=$(awk '{print $2}' "$WORK/$mode" | median)
  samples=$(awk '{print $3}' "$WORK/$mode" | median)
  echo "sampler $mode: fps $fps ($(awk -v a="$fps" -v b="$off" 'BEGIN{printf "%+.1f %%", 100*(a-b)/b}') vs off), cpu per sample ${cpu} ms, samples $samples"
done
rm -rf "$WORK"
