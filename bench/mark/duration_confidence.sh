#!/usr/bin/env bash
# How the mark score's confidence (±%) narrows with the test duration on this machine: runs
# `pictor mark` on the given tests at each duration, REPEATS times, and prints one row per run.
# Usage: bench/mark/duration_confidence.sh PICTOR_BIN OUT_DIR [TESTS] [DURATIONS] [REPEATS]
set -euo pipefail
pictor=${1:?usage: duration_confidence.sh PICTOR_BIN OUT_DIR [TESTS] [DURATIONS] [REPEATS]}
out=${2:?missing OUT_DIR}
tests=${3:-multiply,lines}
durations=${4:-5 10 15 30}
repeats=${5:-1}
mkdir -p "$out"
printf '%-8s %-4s %-10s %10s %10s %10s %8s\n' duration run test score lower upper '±%'
for d in $durations; do
  for r in $(seq 1 "$repeats"); do
    dir="$out/d${d}-r${r}"
    "$pictor" --quiet mark --tests "$tests" --duration "${d}s" --out "$dir" --json > "$dir.json"
    python3 - "$dir.json" "$d" "$r" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for t in m["tests"]:
    print(f"{sys.argv[2]:<8} {sys.argv[3]:<4} {t['name']:<10} {t['score']:10.1f} {t['lower']:10.1f} {t['upper']:10.1f} {t['spread']*100:8.2f}")
s = m["suite"]
print(f"{sys.argv[2]:<8} {sys.argv[3]:<4} {'suite':<10} {s['score']:10.1f} {s['lower']:10.1f} {s['upper']:10.1f} {s['spread']*100:8.2f}")
PY
  done
done
