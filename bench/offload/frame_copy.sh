#!/usr/bin/env bash
# The paper's §6 table (issue 23 item 4): the three frame-copy strategies of --render offload —
# vgl (VirtualGL's per-frame geometry round trip and synchronous read), memo (the geometry
# cached, refreshed on ConfigureNotify) and async (memo plus the two-step read through pixel
# buffers) — over Xvnc on each built-in game. Every round runs every (game, strategy) once in a
# shuffled order; the table gives medians over rounds (the machine is shared: one run means
# little), then memo's and async's change against vgl's medians.
#
#   bench/offload/frame_copy.sh [ROUNDS] [SECONDS] [GAMES]     e.g. bench/offload/frame_copy.sh 5 10
#
# GAMES is a comma list of what to run (default racing,shooter,strategy): a built-in game's name
# (`pictor list scenes`), `glmark2` (Debian's glmark2-x11, its `build` scene for the whole run, the
# driver pressing Left|Right) or `profile:NAME` (a game through its shipped profile, its start-up
# left out of the figures, the driver pressing PROFILE_KEYS, default Left|Right|Up|Down: e.g.
# profile:neverball, an SDL2 game, or profile:extremetuxracer, an SFML one; `pictor list profiles`).
# A profile's session runs SECONDS + PROFILE_STARTUP_S (default 30) from its launch, so that its
# start-up (menus, loading: about 10 s for Neverball, 30 s for ETR) leaves SECONDS or so of play.
# PICTOR=build/bin/pictor by default; SIZE (1280x720) the window; DEVICE an offload device
# (--render offload:device=DEVICE; empty: the first EGL device); OUT the directory of the
# sessions. Prints two Markdown tables; the sessions stay in OUT. ROUNDS=0 with OUT=DIR only
# tabulates the sessions already in DIR.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")/.." && pwd)  # bench/: session_json.py
ROUNDS=${1:-3}
SECONDS_PER_RUN=${2:-10}
GAMES=${3:-racing,shooter,strategy}
PICTOR=${PICTOR:-build/bin/pictor}
SIZE=${SIZE:-1280x720}
DEVICE=${DEVICE:-}
PROFILE_KEYS=${PROFILE_KEYS:-Left|Right|Up|Down}
PROFILE_STARTUP_S=${PROFILE_STARTUP_S:-30}
OUT=${OUT:-$(mktemp -d /tmp/pictor-frame-copy.XXXXXX)}
mkdir -p "$OUT"
RENDER=offload
[ -n "$DEVICE" ] && RENDER="offload:device=$DEVICE"
configs=()
for game in ${GAMES//,/ }; do
  for copy in vgl memo async; do configs+=("$game:$copy"); done
done
echo "frame_copy: $ROUNDS rounds x ${#configs[@]} configs, ${SECONDS_PER_RUN}s each, --render $RENDER over xvnc," \
     "$SIZE, out $OUT, $(uptime)" >&2
for ((r = 1; r <= ROUNDS; r++)); do
  for c in $(printf '%s\n' "${configs[@]}" | shuf); do
    copy=${c##*:}
    game=${c%:*}
    # What runs, and how it is driven: a profile brings its own driver and its load time.
    seconds=$SECONDS_PER_RUN
    case "$game" in
      glmark2) target=(--driver "scripted:rate=4,keys=Left|Right,seed=$r" --size "$SIZE" --
                       glmark2 -b "build:duration=$((SECONDS_PER_RUN + 60))" --size "$SIZE") ;;
      profile:*) target=(--driver "scripted:rate=4,keys=$PROFILE_KEYS,seed=$r" --size "$SIZE" "$game")
                 seconds=$((SECONDS_PER_RUN + PROFILE_STARTUP_S)) ;;
      *) target=(--driver "scripted:rate=4,keys=space|Left|Right,seed=$r" --size "$SIZE" "builtin:$game") ;;
    esac
    dir="$OUT/${game#profile:}-$copy-r$r"
    # Each session runs in its own process group, ended whole if it outlives its budget (a
    # profile's game may take a minute to load).
    timeout -k 5 $((seconds + 120)) setsid "$PICTOR" --quiet run --adapter xvnc --render "$RENDER" \
      --frame-copy "$copy" -d "${seconds}s" --no-resources -o "$dir" "${target[@]}" >/dev/null 2>"$dir.err" ||
      echo "  $game $copy round $r failed: $(tail -1 "$dir.err")" >&2
  done
done
PYTHONPATH="$BENCH_DIR${PYTHONPATH:+:$PYTHONPATH}" python3 - "$OUT" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
from session_json import get
# The share of the inputs the app read that were matched (glmark2 reads key presses only: its
# releases are `not_read`); None when it read none.
def matched_of_read(inputs):
    if not isinstance(inputs, dict) or not inputs.get("sent"):
        return None
    read = inputs["sent"] - (inputs.get("not_read") or 0)
    return 100.0 * inputs["matched"] / read if read > 0 else None
# The figures of one session, as summary.json has them (null stays missing, never 0).
FIGURES = [
    ("srv", lambda s: get(s, "fps_avg")),                        # server (app) FPS: its swaps
    ("cli", lambda s: get(s, "fps_client")),                     # client FPS: distinct frames received
    ("rtt", lambda s: get(s, "rtt_ms", "mean")),
    ("FC", lambda s: get(s, "stages_ms", "FC_ms", "mean")),      # the response frames' copy
    ("AS", lambda s: get(s, "stages_ms", "AS_ms", "mean")),      # the offloaded swap call: copy and put
    ("CP", lambda s: get(s, "stages_ms", "CP_ms", "mean")),
    ("SS", lambda s: get(s, "stages_ms", "SS_ms", "mean")),
    ("fc_frame", lambda s: get(s, "fc_ms", "p50")),              # every frame's copy, not only responses'
    ("as_frame", lambda s: get(s, "as_ms", "p50")),
    ("share", lambda s: matched_of_read(s.get("inputs"))),
]
rows = {}
for d in sorted(glob.glob(os.path.join(out, "*-r*"))):
    f = os.path.join(d, "summary.json")
    if not os.path.isdir(d) or not os.path.exists(f):
        continue
    game, copy = os.path.basename(d).rsplit("-r", 1)[0].rsplit("-", 1)
    s = json.load(open(f))
    r = rows.setdefault((game, copy), {k: [] for k, _ in FIGURES})
    for key, fig in FIGURES:
        v = fig(s)
        if v is not None:
            r[key].append(v)
def med(v):
    return statistics.median(v) if v else None
def text(v):
    return f"{v:.2f}" if v is not None else "–"
cols = [k for k, _ in FIGURES]
print("| game | copy | runs | server FPS | client FPS | RTT mean ms | FC ms | AS ms | CP ms | SS ms | FC p50/frame ms "
      "| AS p50/frame ms | matched % of read |")
print("|" + "---|" * 13)
order = {"vgl": 0, "memo": 1, "async": 2}
for (game, copy) in sorted(rows, key=lambda k: (k[0], order.get(k[1], 9))):
    r = rows[(game, copy)]
    print(f"| {game} | {copy} | {len(r['srv'])} | " + " | ".join(text(med(r[c])) for c in cols) + " |")
print()
print("| game | copy | server FPS vs vgl | client FPS vs vgl | RTT mean vs vgl |")
print("|---|---|---|---|---|")
def change(new, base):
    return f"{100.0 * (new - base) / base:+.1f} %" if new is not None and base else "–"
for game in sorted({g for g, _ in rows}):
    base = rows.get((game, "vgl"))
    for copy in ("memo", "async"):
        r = rows.get((game, copy))
        if not base or not r:
            continue
        print(f"| {game} | {copy} | {change(med(r['srv']), med(base['srv']))} | {change(med(r['cli']), med(base['cli']))} "
              f"| {change(med(r['rtt']), med(base['rtt']))} |")
PY
