#!/bin/bash
# The GL interposer's cost beside MangoHud's, in one interleaved run on one private Xvfb:
# plain, Pictor's interposer (recording, GPU timer queries on), MangoHud 0.6.8 (Debian; HUD off
# with no_display, logging every frame), and Pictor with the tag marker (the blit, and the
# scissored clears it replaced: PICTOR_MARKER_BLIT=0), on pictor-app scenes and glxgears.
# Every mode runs with GLIBC_TUNABLES=glibc.malloc.trim_threshold=1073741824 (glibc's heap
# trimming makes llvmpipe faster under any preload that allocates: docs/marker.md), so the
# comparison is of the tools, not of the heap. Modes take turns within each round and the first
# mode rotates from round to round. Prints every run, then per scene and mode the medians of FPS,
# of the FPS loss against the same round's plain run, and of CPU µs per frame (all threads of the
# app: wait4 of pictor-app, /proc/PID/stat across glxgears' second 5 s report).
# Installs MangoHud from Debian when it is missing (never part of `make test`).
#   bench/hook/vs_mangohud.sh BUILD_DIR [ROUNDS=7] [SECONDS=4] [SCENES="null spin:objects=500 glxgears"]
# (glxgears runs ~10 s: its FPS and CPU are those of its second 5 s report.)
# MODES (environment) picks the modes, default "plain pictor mangohud pictor+marker pictor+marker-clears";
# also "pictor-notiming" (PICTOR_GPU_TIMING=0) and "pictor+overlay" (PICTOR_OVERLAY=1, docs/overlay.md).
# ROUND_TIMEOUT (environment, default 120 s) bounds one run: each run is its own process group
# (setsid), killed whole when it overruns and when the script ends or is interrupted, so no
# measure.py, app or glxgears outlives it.
set -u
BUILD=${1:?usage: $0 BUILD_DIR [ROUNDS] [SECONDS] [SCENES]}
ROUNDS=${2:-7}
SECONDS_EACH=${3:-4}
SCENES=${4:-"null spin:objects=500 glxgears"}
SIZE=1280x720
APP=$(realpath "$BUILD/bin/pictor-app" 2>/dev/null)
HOOK=$(realpath "$BUILD/lib/libpictor_hook.so" 2>/dev/null)
[ -x "$APP" ] && [ -f "$HOOK" ] || { echo "vs_mangohud: build pictor-app and pictor_hook in $BUILD first" >&2; exit 2; }
command -v glxgears >/dev/null || { echo "vs_mangohud: glxgears missing (mesa-utils)" >&2; exit 2; }
if ! dpkg-query -W -f='${Status}' mangohud 2>/dev/null | grep -q "install ok installed"; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "vs_mangohud: installing mangohud (Debian) for the comparison" >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends mangohud >/dev/null ||
    { echo "vs_mangohud: cannot install mangohud" >&2; exit 2; }
fi
MODES=${MODES:-"plain pictor mangohud pictor+marker pictor+marker-clears"}
NO_TRIM=glibc.malloc.trim_threshold=1073741824
WORK=$(mktemp -d /tmp/pictor-vs-mangohud.XXXXXX)
ROUND_TIMEOUT=${ROUND_TIMEOUT:-120}
XVFB_PID=""
# The running round's process group id is in $WORK/round.pgid (run() executes in a subshell).
kill_round() {
  local g; g=$(cat "$WORK/round.pgid" 2>/dev/null) || return 0
  [ -n "$g" ] && kill -KILL -- "-$g" 2>/dev/null
  rm -f "$WORK/round.pgid"
}
WATCHDOG_PID=""
cleanup() {
  [ -n "$WATCHDOG_PID" ] && kill -- "-$WATCHDOG_PID" 2>/dev/null
  kill_round; [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null; rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
exec 3>"$WORK/displayfd"
Xvfb -displayfd 3 -screen 0 ${SIZE}x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
XVFB_PID=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$WORK/displayfd" ] && break; sleep 0.1; done
[ -s "$WORK/displayfd" ] || { echo "vs_mangohud: Xvfb did not start" >&2; exit 1; }
export DISPLAY=:$(head -1 "$WORK/displayfd")
# A SIGKILLed script runs no trap: a watchdog in a session of its own outlives it and then ends
# the running round's group and Xvfb. The EXIT trap ends the watchdog (and its sleep) by group.
export WORK XVFB_PID
setsid bash -c 'while kill -0 '$$' 2>/dev/null; do sleep 1; done
  g=$(cat "$WORK/round.pgid" 2>/dev/null) && [ -n "$g" ] && kill -KILL -- "-$g" 2>/dev/null
  kill "$XVFB_PID" 2>/dev/null; sleep 1; rm -rf "$WORK"' </dev/null >/dev/null 2>&1 &
WATCHDOG_PID=$!

# measure.py [KEY=VALUE...] -- ARGV: runs ARGV with those variables (set in the child only, so
# python itself never runs under a preload), its stderr to $WORK/stderr.
# pictor-app: its stdout (--report) to $RUN_OUT, then prints the child's CPU seconds (user +
# system, all its threads, from wait4).
# GEARS=1 (glxgears, which prints "N frames in T seconds = F FPS" every 5 s and runs until
# stopped): reads /proc/PID/stat's CPU time at each report and stops it after the second; prints
# "frames fps cpu_s" of the second 5 s (start-up excluded).
cat >"$WORK/measure.py" <<'EOF'
import os, signal, subprocess, sys
# A background job of a non-interactive shell starts with SIGINT ignored, and its children would
# inherit that: glxgears must stop at the SIGINT below.
signal.signal(signal.SIGINT, signal.SIG_DFL)
split = sys.argv.index("--")
env = dict(os.environ)
for a in sys.argv[1:split]:
    k, v = a.split("=", 1)
    env[k] = v
argv = sys.argv[split + 1:]
err = open(os.environ["WORK"] + "/stderr", "w")
if os.environ.get("GEARS") == "1":
    tick = os.sysconf("SC_CLK_TCK")
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=err, text=True)
    marks = []
    for line in p.stdout:
        if "frames in" not in line:
            continue
        with open("/proc/%d/stat" % p.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        marks.append((int(fields[11]) + int(fields[12])) / tick)
        if len(marks) == 2:
            words = line.split()
            print(words[0], words[-2], "%.6f" % (marks[1] - marks[0]))
            break
    p.send_signal(signal.SIGINT)
    p.wait()
else:
    out = open(os.environ["RUN_OUT"], "w")
    pid = os.fork()
    if pid == 0:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        os.execvpe(argv[0], argv, env)
    _, status, ru = os.wait4(pid, 0)
    print("%.6f" % (ru.ru_utime + ru.ru_stime))
EOF

# measure KEY=VALUE... -- ARGV: measure.py in a process group of its own (setsid: a background
# child of this non-interactive shell is no group leader, so setsid execs in place and its pid is
# the group's id), killed whole after ROUND_TIMEOUT s; its stdout on ours.
measure() {
  setsid python3 "$WORK/measure.py" "$@" >"$WORK/measure.out" &
  local pid=$! waited=0
  echo "$pid" >"$WORK/round.pgid"
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge $((ROUND_TIMEOUT * 10)) ]; then
      echo "vs_mangohud: a run took over ${ROUND_TIMEOUT} s; its process group is killed" >&2
      break
    fi
    sleep 0.1; waited=$((waited + 1))
  done
  kill_round
  wait "$pid" 2>/dev/null
  cat "$WORK/measure.out"
}

# run MODE SCENE -> "fps cpu_us_per_frame" (or "- -" when the run reported no frames)
run() {
  local mode=$1 scene=$2 out=$WORK/out
  rm -rf "$out"; mkdir -p "$out"
  local env=(GLIBC_TUNABLES=$NO_TRIM)
  # MangoHud logs every frame (log_interval=0) from 1 s after start until the run ends; it keeps
  # the rows in memory and writes its CSV when log_duration is over.
  local log_s=$SECONDS_EACH; [ "$scene" = glxgears ] && log_s=10
  case $mode in
    plain) ;;
    pictor) env+=(LD_PRELOAD=$HOOK PICTOR_OUT=$out) ;;
    pictor-notiming) env+=(LD_PRELOAD=$HOOK PICTOR_OUT=$out PICTOR_GPU_TIMING=0) ;;
    pictor+marker) env+=(LD_PRELOAD=$HOOK PICTOR_OUT=$out PICTOR_MARKER=1) ;;
    pictor+marker-clears) env+=(LD_PRELOAD=$HOOK PICTOR_OUT=$out PICTOR_MARKER=1 PICTOR_MARKER_BLIT=0) ;;
    pictor+overlay) env+=(LD_PRELOAD=$HOOK PICTOR_OUT=$out PICTOR_OVERLAY=1) ;;
    mangohud) env+=(MANGOHUD=1 LD_PRELOAD=libMangoHud.so LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/mangohud
                    "MANGOHUD_CONFIG=no_display,autostart_log=1,log_duration=$log_s,log_interval=0,output_folder=$out") ;;
    *) echo "vs_mangohud: unknown mode $mode" >&2; exit 2 ;;
  esac
  local cpu frames fps
  if [ "$scene" = glxgears ]; then
    read -r frames fps cpu < <(WORK=$WORK GEARS=1 measure "${env[@]}" -- glxgears -geometry $SIZE)
    [ -n "${cpu:-}" ] || { echo "- -"; return; }
  else
    cpu=$(WORK=$WORK RUN_OUT=$WORK/report measure "${env[@]}" -- "$APP" "$scene" --size $SIZE --duration "$SECONDS_EACH" --report)
    frames=$(sed -n 's/.*frames=\([0-9]*\).*/\1/p' "$WORK/report")
    fps=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$WORK/report")
    [ -n "$frames" ] || { echo "- -"; return; }
  fi
  awk -v f="$fps" -v c="$cpu" -v n="$frames" 'BEGIN {printf "%s %.1f\n", f, c * 1e6 / n}'
}

median() { tr ' ' '\n' | grep -v '^-\?$' | sort -g | awk '{v[NR]=$1} END {if (!NR) print "-"; else print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

echo "# $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/') $(nproc) CPUs; $ROUNDS rounds x ${SECONDS_EACH} s, $SIZE, GLIBC_TUNABLES=$NO_TRIM on every mode"
read -r -a mode_list <<<"$MODES"
declare -A FPS CPU LOSS
printf '%-20s %-5s %-22s %10s %12s\n' scene round mode FPS "CPU us/fr"
for scene in $SCENES; do
  for r in $(seq "$ROUNDS"); do
    n=${#mode_list[@]}
    declare -A round_fps=()
    for i in $(seq 0 $((n - 1))); do
      mode=${mode_list[$(((i + r) % n))]}
      read -r fps cpu < <(run "$mode" "$scene")
      printf '%-20s %-5s %-22s %10s %12s\n' "$scene" "$r" "$mode" "$fps" "$cpu"
      round_fps[$mode]=$fps
      FPS[$scene,$mode]+="$fps "; CPU[$scene,$mode]+="$cpu "
    done
    for mode in "${mode_list[@]}"; do
      p=${round_fps[plain]:--}; m=${round_fps[$mode]:--}
      [ "$p" != - ] && [ "$m" != - ] && LOSS[$scene,$mode]+="$(awk -v p="$p" -v m="$m" 'BEGIN {printf "%.2f", (1 - m / p) * 100}') "
    done
    unset round_fps
  done
done
echo "# $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/')"
echo
echo "| scene | mode | FPS | FPS loss vs plain | CPU µs/frame | added CPU µs/frame |"
echo "|---|---|---|---|---|---|"
for scene in $SCENES; do
  plain_cpu=$(median <<<"${CPU[$scene,plain]:-}")
  for mode in "${mode_list[@]}"; do
    c=$(median <<<"${CPU[$scene,$mode]:-}")
    added=$(awk -v a="$c" -v b="$plain_cpu" 'BEGIN {if (a == "-" || b == "-") print "-"; else printf "%+.1f", a - b}')
    loss="—"; [ "$mode" != plain ] && loss="$(median <<<"${LOSS[$scene,$mode]:-}") %"
    echo "| \`$scene\` | $mode | $(median <<<"${FPS[$scene,$mode]:-}") | $loss | $c | $added |"
  done
done
