#!/bin/bash
# Instructions per frame of an app under callgrind (docs/performance.md, "The instrument's
# cost"): whole process, all threads, instrumentation switched on only once the app is past
# start-up, zeroed, then a WINDOW_S s window dumped; per frame = the window's instructions / the
# glXSwapBuffers calls in it. Deterministic, whatever the load: the way to compare tools on a
# machine whose wall-clock rounds scatter by +-25 % (docs/performance.md, 4 Dec 2026).
#   bench/hook/callgrind_frame.sh BUILD_DIR SCENE [KEY=VALUE...]   e.g. PICTOR_OVERLAY=1
# SCENE is a pictor-app scene (null, spin:objects=500, ...) or glxgears (-geometry 1280x720).
# MODE (environment): pictor (default: the interposer preloaded, recording into a temporary
# directory), plain (no preload) or mangohud (Debian's MangoHud 0.6.8 with no HUD, logging every
# frame, as bench/hook/vs_mangohud.sh runs it). KEY=VALUE add to the app's environment.
# Start-up: with pictor on a pictor-app scene, until frames.csv has WARM_ROWS rows (llvmpipe
# compiles a blit's shaders at its first frame, minutes under valgrind); otherwise WARM_S
# seconds (default 120; 240 is safer with PICTOR_MARKER=1).
# Prints "instructions swaps per_frame". Every process it starts is ended by PID.
set -u
BUILD=${1:?usage: $0 BUILD_DIR SCENE [KEY=VALUE...]}
SCENE=${2:?usage: $0 BUILD_DIR SCENE [KEY=VALUE...]}
shift 2
WINDOW_S=${WINDOW_S:-30}
WARM_ROWS=${WARM_ROWS:-20}
WARM_S=${WARM_S:-120}
MODE=${MODE:-pictor}
APP=$(realpath "$BUILD/bin/pictor-app")
HOOK=$(realpath "$BUILD/lib/libpictor_hook.so")
WORK=$(mktemp -d /tmp/pictor-callgrind.XXXXXX)
XVFB_PID="" APP_PID=""
cleanup() {
  [ -n "$APP_PID" ] && kill -KILL "$APP_PID" 2>/dev/null
  [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
exec 3>"$WORK/displayfd"
Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
XVFB_PID=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$WORK/displayfd" ] && break; sleep 0.1; done
[ -s "$WORK/displayfd" ] || { echo "callgrind_frame: Xvfb did not start" >&2; exit 1; }
mkdir -p "$WORK/out"
PRELOAD=()
case $MODE in
  pictor) PRELOAD=(LD_PRELOAD="$HOOK" PICTOR_OUT="$WORK/out") ;;
  plain) ;;
  mangohud) PRELOAD=(MANGOHUD=1 LD_PRELOAD=libMangoHud.so LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/mangohud
                     "MANGOHUD_CONFIG=no_display,autostart_log=1,log_duration=36000,log_interval=0,output_folder=$WORK/out") ;;
  *) echo "callgrind_frame: MODE is pictor, plain or mangohud" >&2; exit 2 ;;
esac
ARGV=("$APP" "$SCENE" --size 1280x720 --duration 3600)
[ "$SCENE" = glxgears ] && ARGV=(glxgears -geometry 1280x720)
env DISPLAY=":$(head -1 "$WORK/displayfd")" GLIBC_TUNABLES=glibc.malloc.trim_threshold=1073741824 \
  "${PRELOAD[@]}" "$@" \
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/cg.out" \
  "${ARGV[@]}" >"$WORK/app.log" 2>&1 &
APP_PID=$!
if [ "$MODE" = pictor ] && [ "$SCENE" != glxgears ]; then
  for _ in $(seq 3600); do
    [ "$(grep -c . "$WORK/out/frames.csv" 2>/dev/null || echo 0)" -gt "$WARM_ROWS" ] && break
    kill -0 "$APP_PID" 2>/dev/null || { echo "callgrind_frame: the app ended early" >&2; cat "$WORK/app.log" >&2; exit 1; }
    sleep 1
  done
else
  sleep "$WARM_S"
  kill -0 "$APP_PID" 2>/dev/null || { echo "callgrind_frame: the app ended early" >&2; cat "$WORK/app.log" >&2; exit 1; }
fi
callgrind_control -i on "$APP_PID" >/dev/null 2>&1; sleep 3
callgrind_control -z "$APP_PID" >/dev/null 2>&1; sleep "$WINDOW_S"
callgrind_control -d "$APP_PID" >/dev/null 2>&1; sleep 2
kill -KILL "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null; APP_PID=""
DUMP=$(ls "$WORK"/cg.out.* 2>/dev/null | head -1)
[ -n "$DUMP" ] || { echo "callgrind_frame: no dump" >&2; exit 1; }
cp "$DUMP" "${CALLGRIND_KEEP:-/dev/null}" 2>/dev/null
TOTAL=$(callgrind_annotate "$DUMP" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
# Swaps: the calls of glXSwapBuffers in the window, from callers not themselves named so. With a
# preload there are two functions of that name (the hook's, called by the app, and libGLX's,
# called by the hook); the larger such total of the two is the frame count.
SWAPS=$(callgrind_annotate --inclusive=yes --tree=caller "$DUMP" 2>/dev/null | python3 -c '
import re, sys
# --tree=caller: each function is a "*" line ("N (p%)  *  file:fn [obj]") after the "<" lines
# of its callers ("N (p%)  <  file:caller (Kx) [obj]"), blocks separated by blank lines.
best, callers = 0, 0
for line in sys.stdin:
    if not line.strip():
        callers = 0
        continue
    m = re.match(r"\s*[0-9,]+\s+\([^)]*\)\s+([*<])\s+(.*)", line)
    if not m:
        continue
    if m.group(1) == "<":
        k = re.search(r"\(([0-9,]+)x\)", m.group(2))
        # A glXSwapBuffers calling one of that name is a hook calling the real function, or
        # MangoHud re-entering it: the same frame, not another.
        if k and not re.search(r":glXSwapBuffers\b", m.group(2)):
            callers += int(k.group(1).replace(",", ""))
    else:
        if re.search(r":glXSwapBuffers\b", m.group(2)):
            best = max(best, callers)
        callers = 0
print(best)')
[ -n "$SWAPS" ] && [ "$SWAPS" -gt 0 ] || { echo "callgrind_frame: no glXSwapBuffers call in the window" >&2; exit 1; }
awk -v t="$TOTAL" -v s="$SWAPS" 'BEGIN {printf "%s %s %.0f\n", t, s, t / s}'
