#!/bin/sh
# Table 3 of the paper on the three built-in games (docs/performance.md, "Intelligent client").
# Per game: records the reference player locally and over Xvnc with a 20 ms delay, trains one
# model on both recordings, then evaluates the intelligent client and the three baselines
# (replay, gated-replay, slow-motion of the local recording) in two settings: local and Xvnc +
# 10 ms (a latency not trained on). In both the reference is the reference player run first in
# the same evaluation: RTTs move with the machine's load, so a reference recorded minutes
# earlier (REFERENCE=rec uses the local recording's session for the local setting) can differ
# from every driver by tens of percent. ROUNDS=N (default 3) runs every evaluation's whole set of
# sessions N times in turn and reports medians over the rounds (`ic eval --rounds`): one 20 s
# session per cell spreads by ±10 % on this machine. Each evaluation's table goes to stdout and
# OUT/table3.txt.
#
# Usage: table3.sh PICTOR OUT [REC_DURATION=30s] [EVAL_DURATION=20s] [GAMES="racing shooter strategy"]
# Environment: IC_OPTIONS (appended to ic:MODEL, e.g. ",seed=2"), TRAIN_ARGS (to pictor train),
# HELD_TOO=1 (also evaluate ic:MODEL,act=held: the earlier held-state behaviour, for comparison),
# ONSETS_TOO=1 (also ic:MODEL,act=onsets: presses only from sampled onsets),
# KEEP_RECS=1 (reuse recordings already in OUT), KEEP_MODEL=1 (reuse OUT/GAME/model), ROUNDS=N,
# TARGET_OPTIONS (appended to builtin:GAME:seed=3; default ",max_fps=60": a capped game leaves
# the client and the servers a core, and its RTT spreads far less between rounds; "" = uncapped),
# STRATEGY_EVAL (default 45s): strategy's evaluation length — a worker's first round trip to a
# crystal takes about 19 s, so in 20 s "crystals delivered" is 0 or 10 on a few frames' timing.
set -e
PICTOR=$1
OUT=$2
REC_D=${3:-30s}
EVAL_D=${4:-20s}
GAMES=${5:-racing shooter strategy}
ROUNDS=${ROUNDS:-3}
if [ -z "$PICTOR" ] || [ -z "$OUT" ]; then
  echo "usage: $0 PICTOR OUT [REC_DURATION] [EVAL_DURATION] [GAMES]" >&2
  exit 2
fi
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
: > "$OUT/table3.txt"
for game in $GAMES; do
  G="$OUT/$game"
  mkdir -p "$G"
  target="builtin:$game:seed=3${TARGET_OPTIONS-,max_fps=60}"
  for setting in local xvnc20; do
    [ -n "$KEEP_RECS" ] && [ -f "$G/rec-$setting/recording.json" ] && continue
    rm -rf "$G/rec-$setting"
    case $setting in
      local) net_args="--adapter local" ;;
      xvnc20) net_args="--adapter xvnc --net delay=20ms" ;;
    esac
    echo "== $game: recording the reference player ($setting, $REC_D)" >&2
    # shellcheck disable=SC2086
    "$PICTOR" -q record --driver reference $net_args "$target" -d "$REC_D" --out "$G/rec-$setting" >/dev/null
  done
  if [ -n "$KEEP_MODEL" ] && [ -f "$G/model/manifest.json" ]; then
    echo "== $game: keeping the model in $G/model" >&2
  else
    echo "== $game: training on both recordings" >&2
    rm -rf "$G/model"
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$PICTOR" -q train "$G/rec-local" "$G/rec-xvnc20" --out "$G/model" $TRAIN_ARGS | tee "$G/train.txt"
    echo "training wall time: $(( $(date +%s) - start )) s" | tee -a "$G/train.txt"
  fi
  R="$G/rec-local"
  eval_d=$EVAL_D
  [ "$game" = strategy ] && eval_d=${STRATEGY_EVAL:-45s}
  # `reference` once more as a driver is the control row: the error a perfect imitation gets.
  drivers="reference,ic:$G/model${IC_OPTIONS},replay:$R,gated-replay:$R,slow-motion:$R"
  [ -n "$HELD_TOO" ] && drivers="$drivers,ic:$G/model,act=held"
  [ -n "$ONSETS_TOO" ] && drivers="$drivers,ic:$G/model,act=onsets"
  local_ref=reference
  [ "$REFERENCE" = rec ] && local_ref=$R
  echo "== $game: local, reference = $local_ref" >&2
  rm -rf "$G/eval-local"
  "$PICTOR" -q ic eval --rounds "$ROUNDS" --reference "$local_ref" --drivers "$drivers" "$target" -d "$eval_d" -o "$G/eval-local" \
    | tee -a "$OUT/table3.txt"
  echo "== $game: xvnc + 10 ms, reference = the reference player there" >&2
  rm -rf "$G/eval-xvnc10"
  "$PICTOR" -q ic eval --rounds "$ROUNDS" --reference reference --drivers "$drivers" "$target" -d "$eval_d" \
    --adapter xvnc --net delay=10ms -o "$G/eval-xvnc10" | tee -a "$OUT/table3.txt"
done
echo "tables: $OUT/table3.txt; per-session results under $OUT/GAME/eval-*/ (ic_eval.json)" >&2
