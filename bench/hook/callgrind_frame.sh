#!/bin/bash
# Instructions per frame of `pictor-app SCENE` under callgrind (docs/performance.md, "The
# instrument's cost"): whole process, all threads, instrumentation switched on only once the app
# is past start-up (frames.csv has WARM_ROWS rows: llvmpipe compiles a blit's shaders at its
# first frame, minutes under valgrind), zeroed, then a WINDOW_S s window dumped; per frame = the
# window's instructions / the GlxWindow::swap calls in it. Deterministic, whatever the load.
#   bench/hook/callgrind_frame.sh BUILD_DIR SCENE [KEY=VALUE...]   e.g. PICTOR_OVERLAY=1
# The interposer is always preloaded, recording into a temporary directory; KEY=VALUE add to its
# environment. Prints "instructions swaps per_frame". Every process it starts is ended by PID.
set -u
BUILD=${1:?usage: $0 BUILD_DIR SCENE [KEY=VALUE...]}
SCENE=${2:?usage: $0 BUILD_DIR SCENE [KEY=VALUE...]}
shift 2
WINDOW_S=${WINDOW_S:-30}
WARM_ROWS=${WARM_ROWS:-20}
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
env DISPLAY=":$(head -1 "$WORK/displayfd")" GLIBC_TUNABLES=glibc.malloc.trim_threshold=1073741824 \
  LD_PRELOAD="$HOOK" PICTOR_OUT="$WORK/out" "$@" \
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/cg.out" \
  "$APP" "$SCENE" --size 1280x720 --duration 3600 >"$WORK/app.log" 2>&1 &
APP_PID=$!
for _ in $(seq 3600); do
  [ "$(grep -c . "$WORK/out/frames.csv" 2>/dev/null || echo 0)" -gt "$WARM_ROWS" ] && break
  kill -0 "$APP_PID" 2>/dev/null || { echo "callgrind_frame: the app ended early" >&2; cat "$WORK/app.log" >&2; exit 1; }
  sleep 1
done
callgrind_control -i on "$APP_PID" >/dev/null 2>&1; sleep 3
callgrind_control -z "$APP_PID" >/dev/null 2>&1; sleep "$WINDOW_S"
callgrind_control -d "$APP_PID" >/dev/null 2>&1; sleep 2
kill -KILL "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null; APP_PID=""
DUMP=$(ls "$WORK"/cg.out.* 2>/dev/null | head -1)
[ -n "$DUMP" ] || { echo "callgrind_frame: no dump" >&2; exit 1; }
TOTAL=$(callgrind_annotate "$DUMP" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
SWAPS=$(callgrind_annotate --inclusive=yes --tree=caller "$DUMP" 2>/dev/null |
  grep 'GlxWindow::swap() (' | head -1 | sed -n 's/.*(\([0-9,]*\)x).*/\1/p' | tr -d ,)
[ -n "$SWAPS" ] || SWAPS=$(callgrind_annotate --inclusive=yes --tree=caller "$DUMP" 2>/dev/null | grep -m1 'GlxWindow::swap' )
cp "$DUMP" "${CALLGRIND_KEEP:-/dev/null}" 2>/dev/null
awk -v t="$TOTAL" -v s="$SWAPS" 'BEGIN {printf "%s %s %.0f\n", t, s, t / s}'
