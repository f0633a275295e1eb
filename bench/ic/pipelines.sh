#!/bin/sh
# "The intelligent client, every time" (issue 24, docs/performance.md): K fresh pipelines with the
# defaults, as a new user runs them —
#   pictor record --driver reference --duration 60 builtin:racing --out P/rec
#   pictor train P/rec --out P/model
#   pictor run --driver ic:P/model --duration 15 builtin:racing --out P/run
# SEEDS=same (default): every pipeline uses the default seeds, so they differ only by the live
# timing of the recording session; SEEDS=different: pipeline i uses record --seed i, game seed
# i + 2, train --seed i and ic seed=i. A model that `pictor train` refuses (weak: exit 1, nothing
# saved) is not played; its row says "refused". ACCEPT_WEAK=1 passes --accept-weak (saves and
# plays every model, as pictor did before the refusal existed).
# Then bench/ic/pipelines_table.py prints one row per pipeline (OUT/table.txt).
#
# RECS_FROM=DIR reuses DIR/pN/rec instead of recording (a paired before/after comparison: the
# same recordings trained and played by two pictors). MODELS_FROM=DIR reuses DIR/pN's recording,
# model and training output and only plays (the same models played by two drivers: IC_OPTS adds
# driver options, e.g. IC_OPTS=,live=off).
#
# Usage: pipelines.sh PICTOR OUT [K=10] [FIRST=1]
# Environment: SEEDS=same|different, REC_D (60), RUN_D (15), TRAIN_ARGS, ACCEPT_WEAK=1, NICE (10),
# RECS_FROM, MODELS_FROM, IC_OPTS.
set -e
PICTOR=$1
OUT=$2
K=${3:-10}
FIRST=${4:-1}
if [ -z "$PICTOR" ] || [ -z "$OUT" ]; then
  echo "usage: $0 PICTOR OUT [K] [FIRST]" >&2
  exit 2
fi
REC_D=${REC_D:-60}
RUN_D=${RUN_D:-15}
SEEDS=${SEEDS:-same}
NICE=${NICE:-10}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
HERE=$(dirname "$(realpath "$0")")
uptime > "$OUT/load.txt"
i=$FIRST
last=$((FIRST + K - 1))
while [ "$i" -le "$last" ]; do
  P="$OUT/p$i"
  rm -rf "$P"
  mkdir -p "$P"
  rec_args=""
  game="builtin:racing"
  train_args=""
  ic_opts="${IC_OPTS:-}"
  if [ "$SEEDS" = different ]; then
    rec_args="--seed $i"
    game="builtin:racing:seed=$((i + 2))"
    train_args="--seed $i"
    ic_opts="$ic_opts,seed=$i"
  fi
  [ -n "$ACCEPT_WEAK" ] && train_args="$train_args --accept-weak"
  echo "== pipeline $i ($SEEDS seeds): record, train, run ($(uptime | sed 's/.*load/load/'))" >&2
  if [ -n "$MODELS_FROM" ]; then
    cp -r "$MODELS_FROM/p$i/rec" "$P/rec"
    for f in train.txt train_seconds record.txt; do
      [ -e "$MODELS_FROM/p$i/$f" ] && cp "$MODELS_FROM/p$i/$f" "$P/$f"
    done
    if [ -d "$MODELS_FROM/p$i/model" ]; then
      cp -r "$MODELS_FROM/p$i/model" "$P/model"
      nice -n "$NICE" "$PICTOR" -q run --driver "ic:$P/model$ic_opts" --duration "$RUN_D" "$game" --out "$P/run" \
        > "$P/run.txt" 2>&1 || echo "pipeline $i: pictor run failed (see $P/run.txt)" >&2
    else
      echo "pipeline $i: no model in $MODELS_FROM/p$i (refused there)" >&2
    fi
    i=$((i + 1))
    continue
  fi
  if [ -n "$RECS_FROM" ]; then
    cp -r "$RECS_FROM/p$i/rec" "$P/rec"
  else
    # shellcheck disable=SC2086
    nice -n "$NICE" "$PICTOR" -q record --driver reference --duration "$REC_D" $rec_args "$game" --out "$P/rec" \
      > "$P/record.txt" 2>&1
  fi
  start=$(date +%s)
  # shellcheck disable=SC2086
  if nice -n "$NICE" "$PICTOR" -q train "$P/rec" --out "$P/model" $train_args $TRAIN_ARGS > "$P/train.txt" 2>&1; then
    echo "$(( $(date +%s) - start ))" > "$P/train_seconds"
    nice -n "$NICE" "$PICTOR" -q run --driver "ic:$P/model$ic_opts" --duration "$RUN_D" "$game" --out "$P/run" \
      > "$P/run.txt" 2>&1 || echo "pipeline $i: pictor run failed (see $P/run.txt)" >&2
  else
    echo "$(( $(date +%s) - start ))" > "$P/train_seconds"
    echo "pipeline $i: pictor train refused or failed: $(tail -n 1 "$P/train.txt")" >&2
  fi
  i=$((i + 1))
done
uptime >> "$OUT/load.txt"
python3 "$HERE/pipelines_table.py" "$OUT" | tee "$OUT/table.txt"
