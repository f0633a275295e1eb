#!/bin/bash
# The Vulkan layer's cost: vkcube (Debian's vulkan-tools) on Mesa's lavapipe, plain, under
# Pictor's layer (as `pictor run` enables it: preload + private implicit-layer manifest; with and
# without the tag marker) and under MangoHud's Vulkan layer (MANGOHUD=1, its default HUD), in
# interleaved rounds on one private Xvfb. No tool reports the plain app's frames, so each mode
# runs vkcube twice, for N1 and N2 frames (`--c`), and the difference of the two runs' wall and
# CPU times over N2 - N1 frames is the per-frame cost: start-up and teardown cancel out.
# Installs MangoHud from Debian when it is missing (never part of `make test`).
#   bench/vklayer/vk_overhead.sh BUILD_DIR [ROUNDS=5] [N1=100] [N2=600] [SIZES="320x240 1920x1080"]
# MODES (environment) picks the modes, default "plain pictor pictor+marker mangohud"; also
# "pictor-notiming" (PICTOR_GPU_TIMING=0) and "mangohud-nohud" (MangoHud with no_display).
set -u
BUILD=${1:?usage: $0 BUILD_DIR [ROUNDS] [N1] [N2] [SIZES]}
ROUNDS=${2:-5}
N1=${3:-100}
N2=${4:-600}
SIZES=${5:-"320x240 1920x1080"}
HOOK=$(realpath "$BUILD/lib/libpictor_hook.so" 2>/dev/null)
LAYER_DIR=$(realpath "$BUILD/share/pictor" 2>/dev/null)
[ -f "$HOOK" ] && [ -d "$LAYER_DIR/vulkan/implicit_layer.d" ] || { echo "build pictor_hook in $BUILD first" >&2; exit 2; }
command -v vkcube >/dev/null || { echo "vkcube missing: scripts/setup.sh installs vulkan-tools" >&2; exit 2; }
if ! dpkg-query -W -f='${Status}' mangohud 2>/dev/null | grep -q "install ok installed"; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "vk_overhead: installing mangohud (Debian) for the comparison" >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends mangohud >/dev/null ||
    { echo "vk_overhead: cannot install mangohud" >&2; exit 2; }
fi
MODES=${MODES:-"plain pictor pictor+marker mangohud"}
WORK=$(mktemp -d /tmp/pictor-vk-bench.XXXXXX)
XVFB_PID=""
cleanup() { [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null; }
trap cleanup EXIT
exec 3>"$WORK/displayfd"
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
XVFB_PID=$!
for _ in $(seq 100); do [ -s "$WORK/displayfd" ] && break; sleep 0.1; done
export DISPLAY=:$(head -1 "$WORK/displayfd")

# run MODE SIZE FRAMES -> "wall_s cpu_s" of one vkcube run of FRAMES frames
run() {
  local mode=$1 w=${2%x*} h=${2#*x} frames=$3 out=$WORK/out-$RANDOM
  mkdir -p "$out"
  local -a env=()
  case $mode in
    pictor) env=(LD_PRELOAD="$HOOK" PICTOR_OUT="$out" XDG_DATA_DIRS="$LAYER_DIR:/usr/local/share:/usr/share") ;;
    pictor+marker) env=(LD_PRELOAD="$HOOK" PICTOR_OUT="$out" PICTOR_MARKER=1 XDG_DATA_DIRS="$LAYER_DIR:/usr/local/share:/usr/share") ;;
    pictor-notiming) env=(LD_PRELOAD="$HOOK" PICTOR_OUT="$out" PICTOR_GPU_TIMING=0 XDG_DATA_DIRS="$LAYER_DIR:/usr/local/share:/usr/share") ;;
    mangohud) env=(MANGOHUD=1) ;;
    mangohud-nohud) env=(MANGOHUD=1 MANGOHUD_CONFIG=no_display) ;;
  esac
  local TIMEFORMAT='%R %U %S' t
  t=$( { time env "${env[@]}" vkcube --c "$frames" --width "$w" --height "$h" >/dev/null 2>&1; } 2>&1 )
  if [ "${mode#pictor}" != "$mode" ]; then
    local rows; rows=$(($(wc -l <"$out/frames.csv") - 1))
    [ "$rows" -eq "$frames" ] || echo "vk_overhead: $mode recorded $rows of $frames frames" >&2
  fi
  rm -rf "$out"
  echo "$t" | awk '{printf "%.4f %.4f\n", $1, $2 + $3}'
}

median() { sort -g | awk '{v[NR]=$1} END{ if (NR%2) print v[(NR+1)/2]; else printf "%.6f\n", (v[NR/2]+v[NR/2+1])/2 }'; }

echo "# vkcube on lavapipe, per-frame cost from runs of $N1 and $N2 frames, median of $ROUNDS interleaved rounds"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for size in $SIZES; do
  for r in $(seq "$ROUNDS"); do
    # A different mode goes first each round, so none always runs on a cold or warm machine.
    read -r -a modes <<<"$MODES"
    s=$(( (r - 1) % ${#modes[@]} ))
    for mode in "${modes[@]:s}" "${modes[@]:0:s}"; do
      read -r w1 c1 <<<"$(run "$mode" "$size" "$N1")"
      read -r w2 c2 <<<"$(run "$mode" "$size" "$N2")"
      awk -v w1="$w1" -v w2="$w2" -v c1="$c1" -v c2="$c2" -v n=$((N2 - N1)) \
        'BEGIN {printf "%.4f %.4f\n", 1000 * (w2 - w1) / n, 1000 * (c2 - c1) / n}' >>"$WORK/$size-$mode"
      echo "round $r $size $mode: ms/frame cpu_ms/frame = $(tail -1 "$WORK/$size-$mode")" >&2
    done
  done
  plain=$(awk '{print $1}' "$WORK/$size-plain" 2>/dev/null | median)
  printf '%-10s %-14s %10s %8s %10s %12s\n' size mode ms/frame FPS vs_plain cpu_ms/frame
  for mode in $MODES; do
    ms=$(awk '{print $1}' "$WORK/$size-$mode" | median)
    cpu=$(awk '{print $2}' "$WORK/$size-$mode" | median)
    awk -v s="$size" -v m="$mode" -v ms="$ms" -v p="$plain" -v cpu="$cpu" \
      'BEGIN {printf "%-10s %-14s %10.3f %8.1f %+9.1f%% %12.3f\n", s, m, ms, 1000 / ms, 100 * (ms - p) / p, cpu}'
  done
done
