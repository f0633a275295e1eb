#!/bin/sh
# Figures for docs/intelligent-client.md: the reference player's game outcome against the
# scripted random driver on each built-in game, then table 3 (replay, gated-replay,
# slow-motion vs the reference recording) on racing. Usage: reference_vs_random.sh PICTOR OUTDIR [DURATION]
set -e
PICTOR=$1
OUT=$2
D=${3:-15s}
mkdir -p "$OUT"
for game in racing shooter strategy; do
  case $game in
    racing) keys="Up|Left|Right|Down" ;;
    shooter) keys="button1|w|a|s|d" ;;
    strategy) keys="button1|button3|Up|Down|Left|Right" ;;
  esac
  rm -rf "$OUT/ref-$game" "$OUT/rand-$game"
  "$PICTOR" -q record --driver reference builtin:$game:seed=3 -d "$D" --out "$OUT/ref-$game" >/dev/null
  "$PICTOR" -q run builtin:$game:seed=3,state="$(realpath "$OUT")/rand-$game/state.csv" -d "$D" \
    --driver "scripted:rate=4,keys=$keys,seed=1" -o "$OUT/rand-$game" >/dev/null
  echo "$game reference: $(grep ',end,' "$OUT/ref-$game/session/state.csv" || tail -1 "$OUT/ref-$game/session/state.csv")"
  echo "$game random:    $(grep ',end,' "$OUT/rand-$game/state.csv" || tail -1 "$OUT/rand-$game/state.csv")"
done
R="$OUT/ref-racing"
"$PICTOR" -q ic eval --reference "$R" --drivers "replay:$R,gated-replay:$R,slow-motion:$R" -d "$D" -o "$OUT/eval-racing"
