#!/bin/bash
# Proxy CPU with and without libpictor_proxyhook.so, and CP per update at several JPEG qualities.
# Runs Xvnc + glxgears (llvmpipe) + the proxyhook_viewer for SECONDS, ROUNDS times per mode,
# interleaved (off, on, off, on, ...), reading Xvnc's utime+stime from /proc/PID/stat around the
# viewer's session. Usage: proxy_overhead.sh BUILD_DIR [SECONDS=8] [ROUNDS=3] [LEVELS="0 3 6"]
set -u
BUILD=${1:?usage: $0 BUILD_DIR [SECONDS] [ROUNDS] [LEVELS]}
SECONDS_RUN=${2:-8}
ROUNDS=${3:-3}
LEVELS=${4:-"0 3 6"}
LIB=$BUILD/lib/libpictor_proxyhook.so
VIEWER=$BUILD/bin/proxyhook_viewer
[ -f "$LIB" ] && [ -x "$VIEWER" ] || { echo "build pictor_proxyhook and proxyhook_viewer in $BUILD first" >&2; exit 2; }
TICK=$(getconf CLK_TCK)
WORK=$(mktemp -d /tmp/pictor-proxy-bench.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; }
trap cleanup EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# CPU ticks of the preload's writer thread (0 without the preload).
writer_ticks() {
  local t
  for t in /proc/"$1"/task/*; do
    [ "$(cat "$t/comm" 2>/dev/null)" = pictor-proxyw ] && { awk '{print $14 + $15}' "$t/stat"; return; }
  done
  echo 0
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# run MODE LEVEL DIR -> prints "cpu_s updates writer_cpu_s"
run() {
  local mode=$1 level=$2 dir=$3 port fd_file disp xp gp before after out wb wa
  mkdir -p "$dir"
  port=$(free_port)
  fd_file=$dir/displayfd
  if [ "$mode" = on ]; then
    LD_PRELOAD=$LIB PICTOR_OUT=$dir PICTOR_PROXY=xvnc PICTOR_PROXY_PORT=$port \
      Xvnc -displayfd 3 -rfbport "$port" -SecurityTypes None -localhost -geometry 640x360 -nolisten tcp \
      -FrameRate 240 3>"$fd_file" >"$dir/xvnc.log" 2>&1 &
  else
    Xvnc -displayfd 3 -rfbport "$port" -SecurityTypes None -localhost -geometry 640x360 -nolisten tcp \
      -FrameRate 240 3>"$fd_file" >"$dir/xvnc.log" 2>&1 &
  fi
  xp=$!; PIDS+=("$xp")
  for _ in $(seq 100); do [ -s "$fd_file" ] && break; sleep 0.1; done
  disp=:$(head -1 "$fd_file")
  DISPLAY=$disp LIBGL_ALWAYS_SOFTWARE=1 glxgears >/dev/null 2>&1 &
  gp=$!; PIDS+=("$gp")
  sleep 1
  before=$(cpu_ticks "$xp"); wb=$(writer_ticks "$xp")
  out=$("$VIEWER" "$port" "$SECONDS_RUN" 0 "$level")
  after=$(cpu_ticks "$xp"); wa=$(writer_ticks "$xp")
  kill "$gp"; wait "$gp" 2>/dev/null
  kill "$xp"; wait "$xp" 2>/dev/null
  echo "$(awk -v a="$after" -v b="$before" -v t="$TICK" 'BEGIN{printf "%.2f", (a-b)/t}') $(echo "$out" | awk '{print $2}') $(awk -v a="$wa" -v b="$wb" -v t="$TICK" 'BEGIN{printf "%.2f", (a-b)/t}')"
}

median() { sort -g | awk '{v[NR]=$1} END{ if (NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2 }'; }

echo "# Xvnc CPU seconds during a ${SECONDS_RUN}s viewer session (Tight level 5), median of $ROUNDS, interleaved"
: >"$WORK/off" ; : >"$WORK/on"
for r in $(seq "$ROUNDS"); do
  for mode in off on; do
    res=$(run "$mode" 5 "$WORK/cpu-$mode-$r")
    echo "$res" >>"$WORK/$mode"
    echo "round $r $mode: cpu_s updates writer_cpu_s = $res" >&2
  done
done
for mode in off on; do
  cpu=$(awk '{print $1}' "$WORK/$mode" | median)
  per=$(awk '$2>0{printf "%.3f\n", 1000*$1/$2}' "$WORK/$mode" | median)
  writer=$(awk '{print $3}' "$WORK/$mode" | median)
  echo "preload $mode: cpu_s $cpu, cpu_ms per update $per, of which the writer thread cpu_s $writer"
done

echo "# CP per burst (JPEG rectangles between two socket writes; Xvnc writes after each rectangle) by Tight level"
for level in $LEVELS; do
  dir=$WORK/cp-$level
  run on "$level" "$dir" >/dev/null
  # One line per burst: its CP in ms; then the summary (mawk has no sort: sort does it).
  sort -t, -k2,2n "$dir/proxy_events.csv" | awk -F, '
    $1=="jpeg" { if (n==0) first=$2; last=($3>last?$3:last); n++; sum+=$3-$2; q=$13; rects++; next }
    $1=="write" && n>0 { printf "%.4f\n", (last-first)/1e6; n=0; last=0; b++ }
    END { printf "rects %d quality %s rect_ms %.4f\n", rects, q, rects ? sum/rects/1e6 : 0 > "/dev/stderr" }' \
    2>"$dir/rects.txt" | sort -g >"$dir/bursts.txt"
  b=$(wc -l <"$dir/bursts.txt")
  if [ "$b" -eq 0 ]; then echo "level $level: no JPEG updates"; continue; fi
  p50=$(sed -n "$(( (b + 1) / 2 ))p" "$dir/bursts.txt")
  p90=$(sed -n "$(( b * 9 / 10 > 0 ? b * 9 / 10 : 1 ))p" "$dir/bursts.txt")
  read -r _ rects _ q _ rect_ms <"$dir/rects.txt"
  echo "level $level (quality $q): $b bursts, $(awk -v r="$rects" -v b="$b" 'BEGIN{printf "%.1f", r/b}') rects/burst, CP per burst p50 $p50 ms p90 $p90 ms, per rect mean $rect_ms ms"
done
echo "# raw results in $WORK" >&2
