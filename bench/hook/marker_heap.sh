#!/bin/bash
# Why the tag marker makes llvmpipe faster on some scenes (docs/marker.md, "The marker and the
# app's heap"): runs one built-in scene under the interposer with the marker off and on, each with
# glibc's default heap trimming and with trimming disabled, interleaved, and prints FPS and minor
# page faults per frame for every run, then the medians.
# Usage: bench/hook/marker_heap.sh BUILD_DIR [ROUNDS] [SECONDS] [SCENE] [SIZE]
set -euo pipefail
build=${1:?usage: marker_heap.sh BUILD_DIR [ROUNDS] [SECONDS] [SCENE] [SIZE]}
rounds=${2:-3}
seconds=${3:-3}
scene=${4:-spin:objects=500}
size=${5:-640x360}
app=$build/bin/pictor-app
hook=$build/lib/libpictor_hook.so
for f in "$app" "$hook"; do [[ -e $f ]] || { echo "marker_heap.sh: $f not found (build pictor-app and pictor_hook)" >&2; exit 2; }; done
command -v perf >/dev/null || { echo "marker_heap.sh: needs perf (linux-perf) to count page faults" >&2; exit 2; }

work=$(mktemp -d)
Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [[ -s $work/display ]] && break; sleep 0.1; done
display=:$(head -1 "$work/display")

# A trim threshold far above what a frame frees: glibc then never gives heap memory back.
no_trim=glibc.malloc.trim_threshold=1073741824
declare -A fps faults
printf '%-6s %-8s %-7s %10s %14s\n' round marker trim FPS faults/frame
for r in $(seq "$rounds"); do
  for marker in 0 1; do
    for trim in default off; do
      out=$work/s; rm -rf "$out"; mkdir -p "$out"
      tunables=""; [[ $trim == off ]] && tunables=$no_trim
      report=$(DISPLAY=$display GLIBC_TUNABLES=$tunables PICTOR_OUT=$out PICTOR_MARKER=$marker \
               LD_PRELOAD=$hook perf stat -x, -e minor-faults -o "$work/perf" \
               "$app" "$scene" --size "$size" --duration "${seconds}s" --report | tail -1)
      frames=$(sed -n 's/.*frames=\([0-9]*\).*/\1/p' <<<"$report")
      f=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' <<<"$report")
      pf=$(grep minor-faults "$work/perf" | cut -d, -f1)
      per=$(awk -v a="$pf" -v b="$frames" 'BEGIN{printf "%.0f", a/b}')
      printf '%-6s %-8s %-7s %10s %14s\n' "$r" "$marker" "$trim" "$f" "$per"
      fps[$marker,$trim]+="$f "; faults[$marker,$trim]+="$per "
    done
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END{print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "medians ($scene, $size, $rounds rounds x ${seconds}s):"
for marker in 0 1; do
  for trim in default off; do
    printf '  marker=%s trim=%-7s FPS %8s  faults/frame %6s\n' "$marker" "$trim" \
      "$(median <<<"${fps[$marker,$trim]}")" "$(median <<<"${faults[$marker,$trim]}")"
  done
done
