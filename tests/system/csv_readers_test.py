#!/usr/bin/env python3
"""Every CSV of real sessions opens in a standard reader (DESIGN §5, issue 13.4).

Runs two real sessions with the pictor binary -- one over Xvnc with the scripted driver and the
game's state log (frames, gpu, inputs_read, client_inputs, client_frames, client_updates,
proxy_events, inputs, state), one local without the marker (client_colours) -- then reads every
CSV they wrote with Python's csv module and checks that the first line is the header row with
the documented columns, and that run.json declares each file with its schema version.

usage: csv_readers_test.py PICTOR_BINARY WORK_DIR
"""
import csv
import json
import os
import shutil
import subprocess
import sys

# The columns docs/session-files.md, docs/client.md, docs/rfb-client.md, docs/proxy-hooks.md and
# docs/games.md, docs/resources.md document for each file (a file may add columns; none may be missing).
DOCUMENTED = {
    "frames.csv": ["frame", "ctx", "swap_ns", "frame_ms", "swap_call_ms", "gpu_ms", "fc_ms", "tag"],
    "gpu.csv": ["frame", "ctx", "gpu_ms"],
    "inputs_read.csv": ["tag", "kind", "detail", "read_ns"],
    "client_inputs.csv": ["tag", "kind", "detail", "sent_ns", "name"],
    "client_frames.csv": ["seen_ns", "tag", "frame", "decode_us", "capture_us"],
    "client_updates.csv": ["update", "start_ns", "end_ns", "rects", "bytes", "x", "y", "w", "h", "marker"],
    "client_colours.csv": ["seen_ns", "r", "g", "b"],
    "proxy_events.csv": ["kind", "start_ns", "end_ns", "fd", "bytes", "input", "detail", "down", "x", "y",
                         "width", "height", "quality"],
    "inputs.csv": ["tag", "kind", "sent_ns", "read_ns", "response_frame", "seen_ns", "rtt_ms", "status"],
    "state.csv": ["step", "event", "detail", "score"],
    "resources.csv": ["t_ns", "stack", "role", "pid", "name", "user_s", "system_s", "rss_kb", "threads",
                      "voluntary_switches", "involuntary_switches", "minor_faults", "major_faults", "read_bytes",
                      "write_bytes", "value", "unit", "note"],
    "counters.csv": ["t_ns", "stack", "role", "pid", "name", "event", "value", "enabled_ns", "running_ns", "note"],
}

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(pictor, args, env=None):
    proc = subprocess.run([pictor, "run"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120, env=dict(os.environ, **(env or {})))
    if proc.returncode != 0:
        sys.exit(f"pictor run {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()[-400:]}")


def check_session(session, must_have, may_be_empty=()):
    with open(os.path.join(session, "run.json")) as f:
        run_json = json.load(f)
    declared = run_json.get("files", {})
    names = sorted(n for n in os.listdir(session) if n.endswith(".csv"))
    for name in must_have:
        check(name in names, f"{session}: {name} was not written")
    for name in names:
        path = os.path.join(session, name)
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            rows = list(reader)
        check(not any(c.startswith("#") for c in columns), f"{path}: the first line is not a header row: {columns}")
        expected = DOCUMENTED.get(name)
        check(expected is not None, f"{path}: a CSV this test does not know (document it and add it here)")
        if expected:
            missing = [c for c in expected if c not in columns]
            check(not missing, f"{path}: documented columns missing from the header: {missing} (header {columns})")
        if name in may_be_empty and not rows:
            # Header only is honest here only when run.json says why nothing was timed.
            reason = (run_json.get("gl") or {}).get("gpu_timer") or ""
            check("none" in reason or "off" in reason,
                  f"{path}: no data rows, and run.json gl.gpu_timer does not say why ({reason!r})")
        else:
            check(len(rows) > 0, f"{path}: no data rows")
        for row in rows:
            if None in row:  # more fields than the header
                check(False, f"{path}: a row has more fields than the header: {row}")
                break
        entry = declared.get(name)
        check(isinstance(entry, dict) and isinstance(entry.get("schema"), int),
              f"{session}/run.json: 'files' does not declare {name} with its schema ({declared})")


def main():
    pictor, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    remote = os.path.join(work, "xvnc")
    # PICTOR_GPU_TIMING=1: llvmpipe takes no timer queries by default, and gpu.csv's rows are checked here.
    run(pictor, ["--adapter", "xvnc", "--driver", "scripted:rate=6,keys=Up+Left", "-d", "5s", "--size", "640x360",
                 "--out", remote, f"builtin:racing:state={os.path.abspath(remote)}/state.csv"],
        env={"PICTOR_GPU_TIMING": "1"})
    check_session(remote, ["frames.csv", "inputs_read.csv", "client_inputs.csv", "client_frames.csv",
                           "client_updates.csv", "proxy_events.csv", "inputs.csv", "state.csv",
                           "resources.csv", "counters.csv"])
    local = os.path.join(work, "local")
    run(pictor, ["--driver", "scripted:rate=4", "--no-marker", "-d", "3s", "--size", "320x240", "--out", local,
                 "builtin:latency"])
    # The default on llvmpipe: no timer queries, so gpu.csv is its header alone and run.json says why.
    check_session(local, ["frames.csv", "client_colours.csv", "resources.csv", "counters.csv"],
                  may_be_empty=["gpu.csv"])
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("every CSV opened with csv.DictReader and had its documented columns")


if __name__ == "__main__":
    main()
