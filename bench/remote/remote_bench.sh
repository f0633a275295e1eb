#!/usr/bin/env bash
# RTT and client FPS of each remote adapter at JPEG qualities 15/42/80 (issue #3 benchmark), run
# side by side: every round runs every configuration once, in a shuffled order, and the table
# gives medians over rounds (the machine is shared and noisy; one run means little).
#
#   bench/remote/remote_bench.sh [ROUNDS] [SECONDS] [SCENE]
#   e.g. bench/remote/remote_bench.sh 3 6 latency
#
# Needs a built tree (PICTOR=build/bin/pictor by default) and python3 for the JSON.
set -euo pipefail
ROUNDS=${1:-3}
SECONDS_PER_RUN=${2:-6}
SCENE=${3:-latency}
PICTOR=${PICTOR:-build/bin/pictor}
NET=${NET:-}
OUT=${OUT:-$(mktemp -d /tmp/pictor-remote-bench.XXXXXX)}
mkdir -p "$OUT"
configs=()
for adapter in xvnc x11vnc; do
  for q in 15 42 80; do configs+=("$adapter:$q"); done
done
echo "remote bench: $ROUNDS rounds x ${#configs[@]} configs, ${SECONDS_PER_RUN}s each, scene $SCENE, net '${NET:-none}', out $OUT" >&2
for ((r = 1; r <= ROUNDS; r++)); do
  for c in $(printf '%s\n' "${configs[@]}" | shuf); do
    adapter=${c%%:*}; q=${c##*:}
    dir="$OUT/$adapter-q$q-r$r"
    args=(--quiet run --adapter "$adapter" --vnc-quality "$q" --driver scripted:rate=4,keys=space,seed=$r
          "builtin:$SCENE" --size 1280x720 -d "${SECONDS_PER_RUN}s" -o "$dir")
    [ -n "$NET" ] && args+=(--net "$NET")
    "$PICTOR" "${args[@]}" >/dev/null 2>"$dir.err" || echo "  $c round $r failed: $(tail -1 "$dir.err")" >&2
  done
done
python3 - "$OUT" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for d in sorted(glob.glob(os.path.join(out, "*-q*-r*"))):
    if not os.path.isdir(d) or not os.path.exists(os.path.join(d, "summary.json")):
        continue
    name = os.path.basename(d).rsplit("-r", 1)[0]
    s = json.load(open(os.path.join(d, "summary.json")))
    stages = s.get("stages_ms", {})
    def mean(k):
        v = stages.get(k + '_ms', {}) or {}
        return v.get("mean")
    r = rows.setdefault(name, {k: [] for k in ["rtt", "p99", "fps_server", "fps_client", "cp", "ss", "matched"]})
    rtt = s.get("rtt_ms", {}) or {}
    for key, val in [("rtt", rtt.get("mean")), ("p99", rtt.get("p99")), ("fps_server", s.get("fps_avg")),
                     ("fps_client", s.get("fps_client")), ("cp", mean("CP")), ("ss", mean("SS")),
                     ("matched", (s.get("inputs") or {}).get("matched"))]:
        if val is not None:
            r[key].append(val)
def med(v):
    return f"{statistics.median(v):8.2f}" if v else "       -"
print(f"{'config':<12}{'RTT mean':>9}{'RTT p99':>9}{'srv FPS':>9}{'cli FPS':>9}{'CP ms':>9}{'SS ms':>9}{'matched':>9}  (medians over rounds)")
for name in sorted(rows):
    r = rows[name]
    print(f"{name:<12}{med(r['rtt'])} {med(r['p99'])} {med(r['fps_server'])} {med(r['fps_client'])} {med(r['cp'])} {med(r['ss'])} {med(r['matched'])}")
PY
