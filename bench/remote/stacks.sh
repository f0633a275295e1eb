#!/usr/bin/env bash
# Every remote stack side by side (issue 19 item 3): the same app, driver and seed through the
# local display, Xvnc + Pictor's RFB client, Xvnc + TigerVNC's vncviewer, xpra (H.264) and the
# stream adapter at two bitrates, each on loopback and over an emulated network. Every round
# runs every configuration once in a shuffled order; the table gives medians over rounds (the
# machine is shared: one run means little).
#
#   bench/remote/stacks.sh [ROUNDS] [SECONDS] [SCENE]      e.g. bench/remote/stacks.sh 3 6 racing
#
# SCENE is a built-in scene (racing) or a whole target (profile:extremetuxracer, a real game).
#
# PICTOR=build/bin/pictor by default; NET (default delay=20ms,jitter=5ms) is the emulated link;
# OUT the directory of the sessions. Prints a Markdown table; each row's sessions stay in OUT.
# ROUNDS=0 with OUT=DIR only tabulates the sessions already in DIR.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")/.." && pwd)  # bench/: session_json.py
ROUNDS=${1:-3}
SECONDS_PER_RUN=${2:-6}
SCENE=${3:-racing}
PICTOR=${PICTOR:-build/bin/pictor}
NET=${NET:-delay=20ms,jitter=5ms}
OUT=${OUT:-$(mktemp -d /tmp/pictor-stacks.XXXXXX)}
mkdir -p "$OUT"
# name:adapter:extra options (commas inside the options; spaces are not allowed in a config)
stacks=("local:local:" "xvnc:xvnc:" "vncviewer:vncviewer:" "xpra:xpra:"
        "stream-2mbit:stream:--stream=bitrate=2mbit" "stream-8mbit:stream:--stream=bitrate=8mbit")
configs=()
for s in "${stacks[@]}"; do
  configs+=("$s:loopback")
  [ "${s%%:*}" != local ] && configs+=("$s:net")  # the local display has no network to emulate
done
TARGET=$SCENE
[[ $TARGET == *:* ]] || TARGET=builtin:$SCENE
echo "stacks: $ROUNDS rounds x ${#configs[@]} configs, ${SECONDS_PER_RUN}s each, $TARGET, net '$NET', out $OUT, $(uptime)" >&2
for ((r = 1; r <= ROUNDS; r++)); do
  for c in $(printf '%s\n' "${configs[@]}" | shuf); do
    IFS=: read -r name adapter extra link <<<"$c"
    dir="$OUT/$name-$link-r$r"
    args=(--quiet run --adapter "$adapter" --driver "scripted:rate=4,keys=space|Left|Right,seed=$r"
          "$TARGET" --size 1280x720 -d "${SECONDS_PER_RUN}s" -o "$dir")
    [ -n "$extra" ] && args+=("$extra")
    [ "$link" = net ] && args+=(--net "$NET")
    # Each session runs in its own process group, ended whole if it outlives its budget.
    timeout -k 5 $((SECONDS_PER_RUN + 90)) setsid "$PICTOR" "${args[@]}" >/dev/null 2>"$dir.err" ||
      echo "  $name $link round $r failed: $(tail -1 "$dir.err")" >&2
  done
done
PYTHONPATH="$BENCH_DIR${PYTHONPATH:+:$PYTHONPATH}" python3 - "$OUT" "$NET" <<'PY'
import glob, json, os, statistics, sys
out, net = sys.argv[1], sys.argv[2]
rows = {}
from session_json import get
for d in sorted(glob.glob(os.path.join(out, "*-r*"))):
    f = os.path.join(d, "summary.json")
    if not os.path.isdir(d) or not os.path.exists(f):
        continue
    name = os.path.basename(d).rsplit("-r", 1)[0]
    s = json.load(open(f))
    sent, matched = get(s, "inputs", "sent"), get(s, "inputs", "matched")
    r = rows.setdefault(name, {})
    # The app's FPS over the frames the client saw (fps_avg also counts the app's start).
    for key, val in [("rtt", get(s, "rtt_ms", "mean")), ("p50", get(s, "rtt_ms", "p50")), ("p99", get(s, "rtt_ms", "p99")),
                     ("srv", get(s, "client_frames", "app_fps_same_span")), ("cli", get(s, "fps_client")),
                     ("share", 100.0 * matched / sent if sent else None),
                     ("CS", get(s, "stages_ms", "CS_ms", "p50")), ("CP", get(s, "stages_ms", "CP_ms", "p50")),
                     ("SS", get(s, "stages_ms", "SS_ms", "p50")),
                     ("down", get(s, "resources", "network", "mbit_s_down")),
                     ("app_cpu", get(s, "resources", "processes", "app", "cpu_mean_pct")),
                     ("rest", get(s, "stages_ms", "unattributed_ms", "p50")),
                     # The server side's proxy: its own process, or the X server that is the proxy (Xvnc).
                     ("proxy_cpu", get(s, "resources", "processes", "proxy", "cpu_mean_pct")
                      if get(s, "resources", "processes", "proxy") else
                      get(s, "resources", "processes", "xserver+proxy", "cpu_mean_pct")),
                     ("client_cpu", get(s, "resources", "processes", "client", "cpu_mean_pct"))]:
        r.setdefault(key, [])
        if val is not None:
            r[key].append(val)
def med(v):
    return f"{statistics.median(v):.1f}" if v else "–"
cols = ["rtt", "p50", "p99", "CS", "CP", "SS", "rest", "srv", "cli", "share", "down", "app_cpu", "proxy_cpu", "client_cpu"]
print("| stack | link | runs | RTT mean ms | RTT p50 ms | RTT p99 ms | CS p50 ms | CP p50 ms | SS p50 ms | unattributed p50 ms | app FPS, same span "
      "| client FPS | matched % | down Mbit/s | app CPU % | proxy CPU % | client CPU % |")
print("|" + "---|" * 17)
for name in sorted(rows, key=lambda n: (n.rsplit("-", 1)[0], n.endswith("-net"))):
    r = rows[name]
    stack, link = name.rsplit("-", 1)
    link = "loopback" if link == "loopback" else net
    print(f"| {stack} | {link} | {len(r['rtt'])} | " + " | ".join(med(r[c]) for c in cols) + " |")
PY
