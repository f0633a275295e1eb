#!/bin/bash
# One host against two (docs/two-hosts.md): the same remote session — app, driver, seed, size,
# duration — run on one host (`pictor run`) and across two network namespaces joined by a veth
# pair (`pictor serve` in one, `pictor run --server` in the other), ROUNDS times each, interleaved
# (one, two, one, two, …). Prints each session's matched share and stage medians (p50 of
# summary.json stages_ms), the medians over the rounds, and the clock offset's uncertainty of
# each two-host session with its probes' round trips (clock.csv). Root only (ip netns).
# ADAPTER xvnc (default), x11vnc, or stream (run with --stream transport=tcp on both sides).
# Usage: two_hosts.sh BUILD_DIR [SECONDS=10] [ROUNDS=3] [ADAPTER=xvnc]
set -u
BUILD=${1:?usage: $0 BUILD_DIR [SECONDS] [ROUNDS] [ADAPTER]}
SECONDS_RUN=${2:-10}
ROUNDS=${3:-3}
ADAPTER=${4:-xvnc}
PICTOR=$(realpath "$BUILD/bin/pictor")
[ -x "$PICTOR" ] || { echo "build pictor in $BUILD first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "network namespaces need root" >&2; exit 2; }
WORK=$(mktemp -d /tmp/pictor-two-hosts-bench.XXXXXX)
A=pictor-bench-a-$$ B=pictor-bench-b-$$ VA=pba$$ VB=pbb$$
NET=10.231.$(( $$ % 200 + 20 ))
AGENT=
cleanup() {
  [ -n "$AGENT" ] && kill "$AGENT" 2>/dev/null && wait "$AGENT" 2>/dev/null
  ip netns del "$A" 2>/dev/null
  ip netns del "$B" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ip netns add "$A" && ip netns add "$B" && ip link add "$VA" type veth peer name "$VB" &&
  ip link set "$VA" netns "$A" && ip link set "$VB" netns "$B" &&
  ip -n "$A" addr add "$NET.1/24" dev "$VA" && ip -n "$B" addr add "$NET.2/24" dev "$VB" &&
  ip -n "$A" link set "$VA" up && ip -n "$B" link set "$VB" up &&
  ip -n "$A" link set lo up && ip -n "$B" link set lo up || { echo "cannot make the namespaces" >&2; exit 1; }
head -c 24 /dev/urandom | base64 > "$WORK/token"
ip netns exec "$A" "$PICTOR" serve --listen "$NET.1:7300" --token-file "$WORK/token" --work-dir "$WORK/agent" \
  >"$WORK/agent.log" 2>&1 &
AGENT=$!
for _ in $(seq 50); do grep -q 'listening on' "$WORK/agent.log" 2>/dev/null && break; sleep 0.1; done
ADAPTER_ARGS=(--adapter "$ADAPTER")
[ "$ADAPTER" = stream ] && ADAPTER_ARGS+=(--stream transport=tcp)
SESSION=("${ADAPTER_ARGS[@]}" --driver 'scripted:rate=5,keys=Up|Left,seed=3' builtin:racing --size 640x360 -d "${SECONDS_RUN}s" --no-db)
echo "uptime: $(uptime)"
for r in $(seq "$ROUNDS"); do
  "$PICTOR" --quiet run -o "$WORK/one-$r" "${SESSION[@]}" >/dev/null 2>"$WORK/one-$r.err" || echo "one-$r failed: $(tail -1 "$WORK/one-$r.err")"
  ip netns exec "$B" "$PICTOR" --quiet run --server "$NET.1:7300" --token-file "$WORK/token" -o "$WORK/two-$r" "${SESSION[@]}" \
    >/dev/null 2>"$WORK/two-$r.err" || echo "two-$r failed: $(tail -1 "$WORK/two-$r.err")"
done
echo "uptime: $(uptime)"
python3 - "$WORK" "$ROUNDS" <<'PY'
import csv, json, os, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
stages = ["CS_ms", "wait_app_ms", "PS_ms", "AL_ms", "AS_ms", "wait_later_frame_ms", "wait_proxy_ms", "CP_ms", "SS_ms"]
def load(d):
    p = os.path.join(work, d, "summary.json")
    return json.load(open(p)) if os.path.exists(p) else None
rows = {"one": [], "two": []}
print("session  matched  RTT p50  " + "  ".join(s[:-3] for s in stages) + "   offset ± uncertainty (µs)  probe RTT median/max (µs)")
for r in range(1, rounds + 1):
    for kind in ("one", "two"):
        s = load(f"{kind}-{r}")
        if not s: continue
        inp = s["inputs"]
        p50 = [s["stages_ms"].get(k, {}).get("p50") for k in stages]
        rtt = s["rtt_ms"]["p50"]
        rows[kind].append((inp["matched"] / max(1, inp["sent"]), rtt, p50))
        extra = ""
        if kind == "two":
            c = json.load(open(os.path.join(work, f"two-{r}", "run.json")))["two_hosts"]["clock"]
            probes = [int(x["rtt_ns"]) for x in csv.DictReader(open(os.path.join(work, f"two-{r}", "clock.csv")))]
            extra = f"   {c['offset_ns']/1e3:.1f} ± {c['uncertainty_ns']/1e3:.1f}   {statistics.median(probes)/1e3:.1f}/{max(probes)/1e3:.1f} ({len(probes)} probes)"
        print(f"{kind}-{r}    {inp['matched']}/{inp['sent']}  {rtt:7.2f}  " + "  ".join(f"{v:.2f}" if isinstance(v, (int, float)) else "-" for v in p50) + extra)
for kind in ("one", "two"):
    if not rows[kind]: continue
    med = lambda xs: statistics.median([x for x in xs if isinstance(x, (int, float))]) if any(isinstance(x, (int, float)) for x in xs) else float("nan")
    print(f"median {kind}: matched {med([x[0] for x in rows[kind]])*100:.1f} %  RTT {med([x[1] for x in rows[kind]]):.2f}  " +
          "  ".join(f"{s[:-3]} {med([x[2][i] for x in rows[kind]]):.2f}" for i, s in enumerate(stages)))
PY
echo "files: $WORK"
