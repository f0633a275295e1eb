#!/usr/bin/env bash
# The whole test suite with N busy loops beside it, to find on purpose the tests whose verdict the
# machine's load changes (docs/environment.md "Tests under load"). Runs the suite of an existing
# build (make test builds one) ROUNDS times in a row and lists, per test, how often it failed.
#   scripts/test-under-load.sh [N]     N busy loops (default: one per core); 0 = a quiet run
# Environment: BUILD (default build), ROUNDS (default 1), JOBS (ctest -j, default: cores + 1, as
#              make test runs it),
#              CTEST_ARGS (more ctest arguments, e.g. "-L unit" or "-R Tracking").
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-$(nproc)}
BUILD=${BUILD:-build}
ROUNDS=${ROUNDS:-1}
JOBS=${JOBS:-$(( $(nproc) + 1 ))}
case "$N" in ''|*[!0-9]*) echo "pictor: test-under-load: N must be a number of busy loops, not '$N'" >&2; exit 2 ;; esac
case "$ROUNDS" in ''|*[!0-9]*|0) echo "pictor: test-under-load: ROUNDS must be a positive number, not '$ROUNDS'" >&2; exit 2 ;; esac
[ -f "$BUILD/CTestTestfile.cmake" ] || { echo "pictor: test-under-load: no test suite in $BUILD (make test builds one)" >&2; exit 2; }

loops=()
stop_loops() {
  for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${loops[@]}"; do wait "$pid" 2>/dev/null || true; done
  loops=()
}
trap stop_loops EXIT
trap 'exit 130' INT TERM

log_dir=$(mktemp -d "${TMPDIR:-/tmp}/pictor-load.XXXXXX")
failed_rounds=0
for round in $(seq 1 "$ROUNDS"); do
  for _ in $(seq 1 "$N"); do
    yes >/dev/null &
    loops+=("$!")
  done
  echo "test-under-load: round $round of $ROUNDS, $N busy loop(s) beside ctest -j $JOBS (log: $log_dir/round-$round.log)" >&2
  start=$(date +%s)
  set +e
  # shellcheck disable=SC2086  # CTEST_ARGS is a list of arguments
  (cd "$BUILD" && XDG_DATA_HOME="$PWD/test-data" ctest -j "$JOBS" --timeout 600 --output-on-failure ${CTEST_ARGS:-}) \
    >"$log_dir/round-$round.log" 2>&1
  rc=$?
  set -e
  stop_loops
  summary=$(grep -E "tests passed|tests failed" "$log_dir/round-$round.log" | tail -1)
  echo "test-under-load: round $round: ctest exited $rc after $(( $(date +%s) - start )) s: ${summary:-no summary}" >&2
  if [ "$rc" -ne 0 ]; then
    failed_rounds=$((failed_rounds + 1))
    sed -n '/The following tests FAILED:/,$p' "$log_dir/round-$round.log" | grep -E '^\s+[0-9]+ - ' >&2 || true
  fi
done

# Per test, the rounds it failed in (none listed: every round passed).
grep -hE '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Child aborted|Exception|Not Run)\)' "$log_dir"/round-*.log 2>/dev/null |
  sed -E 's/^\s+[0-9]+ - //' | sort | uniq -c | sort -rn | sed 's/^/test-under-load: failed in rounds: /' >&2 || true
echo "test-under-load: $failed_rounds of $ROUNDS round(s) failed with $N busy loop(s)" >&2
[ "$failed_rounds" -eq 0 ]
