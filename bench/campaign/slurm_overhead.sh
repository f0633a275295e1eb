#!/bin/bash
# What running a campaign through Slurm costs over its sessions: a one-node Slurm cluster started
# here (a generated munge key, munged, slurmctld -D, slurmd -D on free loopback ports, no
# accounting, everything in a temporary directory; every daemon stopped by PID on exit), then the
# same 2 × 2 campaign (builtin:latency, builtin:spin × local, xvnc) ROUNDS times through
# `--executor local` and `--executor slurm`, interleaved. Per run: the campaign's wall time
# (campaign.json wall_s), the sum of its sessions' wall times (attempts.csv wall_s: pictor run
# itself) and the overhead per session, (campaign − sessions) / cells; medians over the rounds.
# Needs root, slurm-wlm and munge (scripts/setup.sh --tests).
# Usage: slurm_overhead.sh BUILD_DIR [SECONDS=4] [ROUNDS=3] [POLL=500ms]
set -u
BUILD=${1:?usage: $0 BUILD_DIR [SECONDS] [ROUNDS] [POLL]}
SECONDS_RUN=${2:-4}
ROUNDS=${3:-3}
POLL=${4:-500ms}
PICTOR=$(readlink -f "$BUILD/bin/pictor")
[ -x "$PICTOR" ] || { echo "build pictor in $BUILD first" >&2; exit 2; }
for p in munged mungekey slurmctld slurmd sbatch sinfo scancel; do
  command -v "$p" >/dev/null || { echo "$p is not installed (scripts/setup.sh --tests)" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurmd needs root" >&2; exit 2; }

WORK=$(mktemp -d /tmp/pictor-slurm-bench.XXXXXX)
PIDS=()
cleanup() {
  [ -n "${SLURM_CONF:-}" ] && scancel --user=root 2>/dev/null
  # Reverse order of start: slurmd, slurmctld, munged.
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[i]}" 2>/dev/null; wait "${PIDS[i]}" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
mkdir -p "$WORK"/{munge,state,spool,log}
chmod 755 "$WORK" "$WORK/munge"
mungekey --create --keyfile="$WORK/munge/munge.key" || exit 1
export SLURM_CONF=$WORK/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=pictorbench
SlurmctldHost=localhost
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=pictor Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
munged -F -f --key-file="$WORK/munge/munge.key" --socket="$WORK/munge/munge.socket" --pid-file="$WORK/munge/munged.pid" \
  --log-file="$WORK/log/munged.log" --seed-file="$WORK/munge/seed" >"$WORK/log/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$WORK/munge/munge.socket" ] && break; sleep 0.2; done
slurmctld -D -f "$SLURM_CONF" >"$WORK/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N localhost >"$WORK/log/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 150); do [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break; sleep 0.2; done
[ "$(sinfo -h -o %t)" = idle ] || { echo "the node did not become idle" >&2; exit 1; }

cat > "$WORK/plan.yaml" <<EOF
name: overhead
duration: ${SECONDS_RUN}s
size: 320x240
driver: scripted:rate=5,seed=3
resources: false
benchmarks: [builtin:latency, builtin:spin:objects=50]
adapters: [local, xvnc]
slurm: {partition: pictor, cpus_per_task: 2, poll: $POLL}
EOF

# run EXECUTOR DIR -> "campaign_s sessions_s cells"
run() {
  "$PICTOR" --quiet campaign run "$WORK/plan.yaml" --executor "$1" --out "$2" >/dev/null 2>"$2.err" ||
    { echo "campaign failed: $(tail -1 "$2.err")" >&2; echo "nan nan 0"; return; }
  python3 - "$2" <<'PY'
import csv, json, sys
d = sys.argv[1]
wall = json.load(open(d + "/campaign.json"))["wall_s"]
rows = list(csv.DictReader(open(d + "/attempts.csv")))
print(wall, sum(float(r["wall_s"]) for r in rows), len(rows))
PY
}

declare -A CAMPAIGN SESSIONS
for r in $(seq "$ROUNDS"); do
  for ex in local slurm; do
    read -r c s n < <(run "$ex" "$WORK/$ex-$r")
    CAMPAIGN[$ex]+="$c "
    SESSIONS[$ex]+="$s "
    printf 'round %d %-5s campaign %6.2f s  sessions %6.2f s  %d cells  overhead %.2f s per session\n' "$r" "$ex" "$c" "$s" "$n" \
      "$(python3 -c "print(($c - $s) / max($n, 1))")"
  done
done
for ex in local slurm; do
  python3 - "$ex" "${CAMPAIGN[$ex]}" "${SESSIONS[$ex]}" <<'PY'
import statistics, sys
ex, c, s = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
over = [(a - b) / 4 for a, b in zip(c, s)]
print(f"{ex:5} median campaign {statistics.median(c):.2f} s, sessions {statistics.median(s):.2f} s, "
      f"overhead {statistics.median(over):.2f} s per session (of {len(c)} rounds)")
PY
done
uptime
