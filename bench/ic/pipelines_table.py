#!/usr/bin/env python3
"""The table of bench/ic/pipelines.sh: one row per pipeline directory OUT/pN (rec, model, run).

Per pipeline: the held-out key accuracy (policy on the detector's output) against each key's
majority state, the detector's AP per class, the calibrated hold thresholds, the teacher's inputs
per minute (the recording's inputs.csv over its duration) and the IC's (client_inputs.csv over
the run's measured duration), each key's share of presses (IC / teacher, percent), the training
wall time, the inference time's p99 per frame (and over the frames no other thread preempted), and the verdict. Unknown
is "-", never 0. The last columns check the issue's targets:
acc > majority, inputs/min within 25 % of the teacher's, every key's share within 10 points.
"""
import csv
import json
import os
import re
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def presses(path, kind_col, name_col):
    counts, total = {}, 0
    try:
        with open(path) as f:
            for row in csv.DictReader(f):
                total += 1
                if row[kind_col] in ("key_press", "button_press"):
                    counts[row[name_col]] = counts.get(row[name_col], 0) + 1
    except OSError:
        return None, None
    return counts, total


def fmt(x, spec=".3f"):
    return "-" if x is None else format(x, spec)


def shares(counts, vocab):
    n = sum(counts.get(k, 0) for k in vocab)
    return {k: (100.0 * counts.get(k, 0) / n if n else None) for k in vocab}


def row(p):
    rec = load(os.path.join(p, "rec", "recording.json")) or {}
    man = load(os.path.join(p, "model", "manifest.json"))
    run = load(os.path.join(p, "run", "run.json"))
    vocab = rec.get("vocabulary", ["Up", "Left", "Right", "Down"])
    t_counts, t_total = presses(os.path.join(p, "rec", "inputs.csv"), "kind", "code")
    t_ipm = t_total / rec["duration_s"] * 60 if t_total is not None and rec.get("duration_s") else None
    out = {"name": os.path.basename(p), "t_ipm": t_ipm, "vocab": vocab,
           "t_share": shares(t_counts, vocab) if t_counts else None}
    if man:
        pol = man.get("metrics", {}).get("policy_on_detector", {})
        out["acc"], out["maj"] = pol.get("held_accuracy"), pol.get("majority_baseline_accuracy")
        pc = man.get("metrics", {}).get("detector", {}).get("per_class", {})
        out["ap"] = {c: pc.get(c, {}).get("ap50") for c in man.get("classes", [])}
        out["hold"] = man.get("policy", {}).get("hold_thresholds")
        out["verdict"] = (man.get("verdict") or {}).get("weak")
    else:  # refused (nothing saved): the figures of its summary line
        try:
            with open(os.path.join(p, "train.txt")) as f:
                text = f.read()
            m = re.search(r"held-out key accuracy ([0-9.]+) \(majority ([0-9.]+)\)", text)
            if m:
                out["acc_refused"], out["maj_refused"] = float(m.group(1)), float(m.group(2))
        except OSError:
            pass
    try:
        with open(os.path.join(p, "train_seconds")) as f:
            out["train_s"] = int(f.read().strip())
    except (OSError, ValueError):
        out["train_s"] = None
    if run:
        dur = run.get("duration_measured_s")
        i_counts, i_total = presses(os.path.join(p, "run", "client_inputs.csv"), "kind", "name")
        out["i_ipm"] = i_total / dur * 60 if i_total is not None and dur else None
        out["i_share"] = shares(i_counts, vocab) if i_counts is not None else None
        # The inference time's tail per frame (wall; of the frames no other thread preempted).
        rep = (run.get("client") or {}).get("driver_report") or {}
        inf = rep.get("inference_ms") or {}
        out["p99"] = (inf.get("total") or {}).get("p99")
        out["p99_quiet"] = (inf.get("total_unpreempted") or {}).get("p99")
    return out


def main():
    out_dir = sys.argv[1]
    dirs = sorted((d for d in os.listdir(out_dir) if d.startswith("p") and d[1:].isdigit()), key=lambda d: int(d[1:]))
    rows = [row(os.path.join(out_dir, d)) for d in dirs]
    print("pipe   acc    maj  AP player/car/obstacle  hold thresholds (Up Left Right Down)  train s  "
          "teacher/min  ic/min  press shares % ic/teacher (Up Left Right Down)  "
          "p99 ms (unpreempted)  targets")
    met = 0
    for r in rows:
        ap = "/".join(fmt(v, ".2f") for v in r.get("ap", {}).values()) if r.get("ap") else "-"
        hold = " ".join(fmt(v, ".2f") for v in r["hold"]) if r.get("hold") else "-"
        sh = "-"
        ok_share = None
        if r.get("i_share") and r.get("t_share"):
            sh = " ".join(f"{fmt(r['i_share'][k], '.0f')}/{fmt(r['t_share'][k], '.0f')}" for k in r["vocab"])
            ok_share = all(r["i_share"][k] is not None and r["t_share"][k] is not None and
                           abs(r["i_share"][k] - r["t_share"][k]) <= 10 for k in r["vocab"])
        ok_acc = r.get("acc") is not None and r.get("maj") is not None and r["acc"] > r["maj"]
        ok_rate = (r.get("i_ipm") is not None and r.get("t_ipm") and abs(r["i_ipm"] / r["t_ipm"] - 1) <= 0.25)
        if "acc" not in r:
            verdict = "refused" if os.path.exists(os.path.join(out_dir, r["name"], "train_seconds")) else "-"
            r["acc"], r["maj"] = r.get("acc_refused"), r.get("maj_refused")
        elif r.get("i_ipm") is None:
            verdict = "not played"
        else:
            good = ok_acc and ok_rate and ok_share
            met += 1 if good else 0
            verdict = ("MET" if good else "missed:" + ",".join(
                n for n, ok in (("acc", ok_acc), ("rate", ok_rate), ("mix", ok_share)) if not ok))
        if r.get("verdict"):
            verdict += " (weak)"
        print(f"{r['name']:<5} {fmt(r.get('acc'))} {fmt(r.get('maj'))}  {ap:<22} {hold:<37} {fmt(r.get('train_s'), 'd'):>6}  "
              f"{fmt(r.get('t_ipm'), '.0f'):>11}  {fmt(r.get('i_ipm'), '.0f'):>6}  {sh:<48} "
              f"{fmt(r.get('p99'), '.1f'):>6} ({fmt(r.get('p99_quiet'), '.1f')})  {verdict}")
    refused = sum(1 for r in rows if r.get("acc_refused") is not None)
    print(f"targets met in {met} of {len(rows)} pipelines; refused by pictor train: {refused}")


if __name__ == "__main__":
    main()
