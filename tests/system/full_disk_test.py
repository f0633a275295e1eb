#!/usr/bin/env python3
"""A disk that fills up during `pictor run` leaves no record that claims what did not happen
(issue 14.4, docs/faults.md "Full disk").

Mounts a 300 KB tmpfs, runs real sessions whose session directory is on it -- builtin:spin with
no driver, builtin:latency with the scripted driver (client files, inputs.csv, trace.json), and
the same over Xvnc (proxy_events.csv, proxy.json, client_updates.csv) -- fills the disk while they
record (a file beside the session takes all but 8 KB once the session's first rows are on disk)
and checks what they leave: every CSV reads row by row with its header's width (Python's csv
module), every JSON parses, no temporary file is left, hook.json, proxy.json and run.json say
what was lost (each CSV holds exactly the rows its recorder says it wrote), `pictor run` exits 1
and its last stderr line names the disk and the frame rows lost.

Mounting needs root: without it the test is skipped (exit 77), saying why.

usage: full_disk_test.py PICTOR_BINARY WORK_DIR
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time

SKIP = 77
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        print(f"SKIP: mounting a tmpfs is not permitted here: {proc.stdout.strip()}")
        sys.exit(SKIP)


def unmount(path):
    subprocess.run(["umount", "-l", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def fill(path, leave):
    """Fills the disk with `path`, then gives back `leave` bytes: the disk fills up for real."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    size = 0
    try:
        while True:
            size += os.write(fd, b"x" * 4096)
    except OSError:
        pass
    os.ftruncate(fd, max(size - leave, 0))
    os.close(fd)


def run(pictor, args, session, filler, trigger):
    """Runs pictor; once hook.json is there and `trigger` (a CSV of the session) has rows, fills
    the disk."""
    proc = subprocess.Popen([pictor, "run"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    filled = False
    while proc.poll() is None and time.monotonic() < deadline:
        path = os.path.join(session, trigger)
        if (os.path.exists(os.path.join(session, "hook.json")) and os.path.exists(path) and
                data_rows(path) > 0):
            fill(filler, leave=8192)
            filled = True
            break
        time.sleep(0.02)
    check(filled, f"{session}: {trigger} never had data: the disk was not filled during the run")
    _, stderr = proc.communicate(timeout=120)
    lines = [l for l in stderr.splitlines() if l.strip()]
    return proc.returncode, lines[-1] if lines else "", stderr


def check_csvs(session):
    """Every CSV: the header first, every row as wide as it."""
    for name in sorted(n for n in os.listdir(session) if n.endswith(".csv")):
        path = os.path.join(session, name)
        with open(path, newline="") as f:
            text = f.read()
        if not text:
            continue  # created, header never written: empty, not a lie (hook.json counts it)
        check(text.endswith("\n"), f"{path}: ends in half a row: {text[-80:]!r}")
        rows = list(csv.reader(text.splitlines()))
        width = len(rows[0])
        for i, row in enumerate(rows[1:], start=2):
            if len(row) != width:
                check(False, f"{path}: line {i} has {len(row)} fields, the header {width}: {row}")
                break


def load_jsons(session):
    out = {}
    for name in sorted(n for n in os.listdir(session) if n.endswith(".json")):
        path = os.path.join(session, name)
        try:
            with open(path) as f:
                out[name] = json.load(f)
        except ValueError as e:
            check(False, f"{path}: not valid JSON ({e}); size {os.path.getsize(path)}")
    return out


def data_rows(path):
    with open(path, newline="") as f:
        return max(sum(1 for _ in csv.reader(f)) - 1, 0)


def check_recorder(session, status, csv_name):
    """A recorder's status file says what it lost, and its CSV holds exactly what it says it wrote."""
    lost = status.get("write_errors", {}).get(csv_name)
    check(isinstance(lost, dict), f"{session}: write_errors says nothing of {csv_name}: {status}")
    if not isinstance(lost, dict):
        return None
    check(lost.get("error") == "No space left on device", f"{session}: {csv_name} error {lost.get('error')!r}")
    check(lost.get("rows_lost", 0) > 0, f"{session}: {csv_name} rows_lost {lost.get('rows_lost')}")
    check(lost.get("bytes_lost", 0) > 0, f"{session}: {csv_name} bytes_lost {lost.get('bytes_lost')}")
    rows = data_rows(os.path.join(session, csv_name))
    check(lost.get("rows_written") == rows + 1,  # the header row included
          f"{session}: {csv_name} has {rows} rows, its recorder says {lost.get('rows_written')} written")
    return lost


def check_session(session, code, last, driver, proxy):
    tmp = [n for n in os.listdir(session) if n.endswith(".tmp")]
    check(not tmp, f"{session}: temporary files left: {tmp}")
    check(code == 1, f"{session}: pictor run exited {code}, not 1")
    m = re.fullmatch(r"pictor: the disk holding (.+) is full \(No space left on device\): (.*?)(\d+) frame rows lost",
                     last)
    check(m is not None, f"{session}: the last stderr line does not name the full disk: {last!r}")
    if m:
        check(os.path.samefile(m.group(1), session), f"{session}: the line names {m.group(1)}")
        check(int(m.group(3)) > 0, f"{session}: no frame row lost, yet the disk filled during the run: {last!r}")
    check_csvs(session)
    docs = load_jsons(session)

    hook = docs.get("hook.json")
    check(hook is not None, f"{session}: hook.json missing")
    lost = check_recorder(session, hook, "frames.csv") if hook else None
    if m and lost:
        check(int(m.group(3)) == lost.get("rows_lost"),
              f"{session}: the last line says {m.group(3)} frame rows lost, hook.json {lost.get('rows_lost')}")
    if proxy:
        status = docs.get("proxy.json")
        check(status is not None, f"{session}: proxy.json missing")
        if status:
            check_recorder(session, status, "proxy_events.csv")
            check("proxy_events.csv rows lost" in last, f"{session}: the last line omits the proxy's rows: {last!r}")

    run_json = docs.get("run.json")
    check(run_json is not None, f"{session}: run.json missing or unreadable")
    if run_json:
        check(run_json.get("status") == "failed", f"{session}: run.json status {run_json.get('status')!r}")
        check(run_json.get("failure") == last[len("pictor: "):],
              f"{session}: run.json failure {run_json.get('failure')!r} is not the last line {last!r}")
        errors = run_json.get("write_errors", {})
        check("frames.csv" in errors, f"{session}: run.json write_errors lacks frames.csv: {errors}")
        check("summary.json" in errors or "summary.json" in docs,
              f"{session}: summary.json neither written nor listed as not written: {errors}")
        if driver:
            client = run_json.get("client", {})
            failure = client.get("failure") or ""
            check(failure == "" or "No space left on device" in failure,
                  f"{session}: the client's failure does not name the disk: {failure!r}")
    if driver:
        for name in ["client_inputs.csv", "client_frames.csv"]:
            check(name in os.listdir(session), f"{session}: {name} was not created")


def main():
    pictor, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # name, arguments, driver, proxy, the CSV whose first rows trigger the fill
    cases = [
        ("spin", ["-d", "4s", "--size", "160x120", "builtin:spin"], False, False, "frames.csv"),
        ("driven", ["--driver", "scripted:rate=8", "-d", "4s", "--size", "160x120", "builtin:latency"], True, False,
         "client_frames.csv"),
        ("xvnc", ["--adapter", "xvnc", "--driver", "scripted:rate=8", "-d", "4s", "--size", "160x120",
                  "builtin:latency"], True, True, "client_frames.csv"),
    ]
    for name, args, driver, proxy, trigger in cases:
        disk = os.path.join(work, name)
        mount_tmpfs(disk, "300k")
        try:
            session = os.path.join(disk, "session")
            code, last, stderr = run(pictor, args + ["--out", session], session, os.path.join(disk, "filler"), trigger)
            check_session(session, code, last, driver, proxy)
            if failures:
                print(f"--- {name}: stderr\n{stderr}\n--- files")
                for n in sorted(os.listdir(session)):
                    print(f"  {n} {os.path.getsize(os.path.join(session, n))}")
        finally:
            unmount(disk)
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("full disk: every CSV whole, every JSON valid, no temporary file, losses counted and named")


if __name__ == "__main__":
    main()
