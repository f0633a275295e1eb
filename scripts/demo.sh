#!/usr/bin/env bash
# The main job on the embedded default (Xvfb + Mesa llvmpipe): the benchmark suite when it is
# built, else a short run of a built-in scene and of a third-party app (glxgears).
set -euo pipefail
BUILD=${1:-build}
PICTOR="$BUILD/bin/pictor"
OUT=${PICTOR_DEMO_OUT:-pictor-out/demo}
rm -rf "$OUT"
mkdir -p "$OUT"
if "$PICTOR" suite --help >/dev/null 2>&1; then
  "$PICTOR" suite --quick --out "$OUT/suite"
  echo "demo: suite results in $OUT/suite (suite.json, one directory per benchmark)" >&2
  echo "demo: open $OUT/suite/report.html in a browser (the suite's report, linking every benchmark's own)" >&2
else
  "$PICTOR" run builtin:spin:objects=1000 --duration 5s --out "$OUT/spin"
  "$PICTOR" run --duration 5s --out "$OUT/glxgears" -- glxgears
  echo "demo: sessions in $OUT/spin and $OUT/glxgears (report.html and frametime.png in each)" >&2
fi
