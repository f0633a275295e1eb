#!/usr/bin/env bash
# Every remote stack side by side (issue 19 item 3): the same app, driver and seed through the
# local display, Xvnc + Pictor's RFB client, Xvnc + TigerVNC's vncviewer, xpra (H.264) and the
# stream adapter at two bitrates, each on loopback and over an emulated network. Every round
# runs every configuration once in a shuffled order; the table gives medians over rounds (the
# machine is shared: one run means little).
#
#   bench/remote/stacks.sh [ROUNDS] [SECONDS] [SCENE]      e.g. bench/remote/stacks.sh 3 6 racing
#
# PICTOR=build/bin/pictor by default; NET (default delay=20ms,jitter=5ms) is the emulated link;
# OUT the directory of the sessions. Prints a Markdown table; each row's sessions stay in OUT.
# ROUNDS=0 with OUT=DIR only tabulates the sessions already in DIR.
set -euo pipefail
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
echo "stacks: $ROUNDS rounds x ${#configs[@]} configs, ${SECONDS_PER_RUN}s each, builtin:$SCENE, net '$NET', out $OUT, $(uptime)" >&2
for ((r = 1; r <= ROUNDS; r++)); do
  for c in $(printf '%s\n' "${configs[@]}" | shuf); do
    IFS=: read -r name adapter extra link <<<"$c"
    dir="$OUT/$name-$link-r$r"
    args=(--quiet run --adapter "$adapter" --driver "scripted:rate=4,keys=space|Left|Right,seed=$r"
          "builtin:$SCENE" --size 1280x720 -d "${SECONDS_PER_RUN}s" -o "$dir")
    [ -n "$extra" ] && args+=("$extra")
    [ "$link" = net ] && args+=(--net "$NET")
    # Each session runs in its own process group, ended whole if it outlives its budget.
    timeout -k 5 $((SECONDS_PER_RUN + 90)) setsid "$PICTOR" "${args[@]}" >/dev/null 2>"$dir.err" ||
      echo "  $name $link round $r failed: $(tail -1 "$dir.err")" >&2
  done
done
python3 - "$OUT" "$NET" <<'PY'
import glob, json, os, statistics, sys
out, net = sys.argv[1], sys.argv[2]
rows = {}
for d in sorted(glob.glob(os.path.join(out, "*-r*"))):
    f = os.path.join(d, "summary.json")
    if not os.path.isdir(d) or not os.path.exists(f):
        continue
    name = os.path.basename(d).rsplit("-r", 1)[0]
    s = json.load(open(f))
    rtt = s.get("rtt_ms") or {}
    inputs = s.get("inputs") or {}
    sent, matched = inputs.get("sent"), inputs.get("matched")
    r = rows.setdefault(name, {k: [] for k in ["rtt", "p50", "p99", "srv", "cli", "share"]})
    # The app's FPS over the frames the client saw (fps_avg also counts the app's start).
    for key, val in [("rtt", rtt.get("mean")), ("p50", rtt.get("p50")), ("p99", rtt.get("p99")),
                     ("srv", (s.get("client_frames") or {}).get("app_fps_same_span")), ("cli", s.get("fps_client")),
                     ("share", 100.0 * matched / sent if sent else None)]:
        if val is not None:
            r[key].append(val)
def med(v):
    return f"{statistics.median(v):.1f}" if v else "–"
print(f"| stack | link | runs | RTT mean ms | RTT p50 ms | RTT p99 ms | app FPS, same span | client FPS | matched % |")
print("|---|---|---|---|---|---|---|---|---|")
for name in sorted(rows, key=lambda n: (n.rsplit("-", 1)[0], n.endswith("-net"))):
    r = rows[name]
    stack, link = name.rsplit("-", 1)
    link = "loopback" if link == "loopback" else net
    print(f"| {stack} | {link} | {len(r['rtt'])} | {med(r['rtt'])} | {med(r['p50'])} | {med(r['p99'])} | "
          f"{med(r['srv'])} | {med(r['cli'])} | {med(r['share'])} |")
PY
