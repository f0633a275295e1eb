#!/usr/bin/env python3
"""Where a mark score's run-to-run variance comes from (issue 22, docs/performance.md).

Reads the iteration directories of one `pictor mark --iterations N` run (DIR/iteration-K/mark.json)
and prints, per test:
  * the score of every iteration, their mean and CV (sd / mean): the run-to-run spread;
  * the change points of the single ramps (each ramp's own regression, `ramps[].regression`):
    their CV within a run (pooled over the iterations) against the CV of their per-run means
    between runs — spread within a run that averages out says the ramps are noisy; spread between
    runs that is larger than within-run noise predicts (within / sqrt(ramps)) says the runs differ;
  * the first ramp against the others (mean change point of ramp 1 / mean of ramps 2..): a warm-up
    effect shows as a first ramp off the rest;
  * how often the ramps reached the stage maximum and the test's bootstrap spread;
  * the CPU probe (mark.json `disturbance.cpuProbeMs`: a fixed integer workload's thread CPU time
    before and after each test): its mean per run, and the correlation (Pearson r) across runs of
    each test's score with the CPU's speed (1 / probe) — a score that follows the probe moved
    because the machine's CPU did, not the renderer;
  * the memory probe (`disturbance.memoryProbeMs`: summing a 64 MiB buffer, thread CPU time) the
    same way: a score that follows it moved with the host's memory bandwidth.

usage: bench/mark/variance.py DIR [DIR …]   (several DIRs are pooled as more iterations)
"""
import json
import math
import pathlib
import statistics
import sys


def cv(values):
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    return statistics.stdev(values) / mean if mean else None


def pct(v):
    return "-" if v is None else f"{100 * v:.1f} %"


def correlation(xs, ys):
    pairs = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
    if len(pairs) < 3:
        return "-"
    try:
        return f"{statistics.correlation([x for x, _ in pairs], [y for _, y in pairs]):+.2f}"
    except statistics.StatisticsError:
        return "-"


def iterations(dirs):
    for d in dirs:
        d = pathlib.Path(d)
        found = sorted(d.glob("iteration-*/mark.json"), key=lambda p: int(p.parent.name.split("-")[1]))
        if not found and (d / "mark.json").exists():
            found = [d / "mark.json"]
        for p in found:
            yield p, json.loads(p.read_text())


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    runs = list(iterations(argv[1:]))
    if not runs:
        print(f"variance.py: no iteration-K/mark.json under {' '.join(argv[1:])}", file=sys.stderr)
        return 1
    names = [t["name"] for t in runs[0][1]["tests"]]
    print(f"{len(runs)} runs; load average at start/end: " +
          ", ".join(f"{r['machine'].get('load_average_start', '-')}/{r['machine'].get('load_average_end', '-')}"
                    for _, r in runs))
    header = ("test", "scores", "run CV", "ramps/run", "ramp CV within", "ramp-mean CV between",
              "expected between", "ramp1/rest", "spread (bootstrap)", "at max", "probe ms", "probe CV",
              "r(score, speed)", "mem probe ms", "mem probe CV", "r(score, mem speed)")
    rows = [header]
    suite = []
    for name in names:
        scores, within, means, first_ratio, spreads, at_max, n_ramps = [], [], [], [], [], 0, []
        probes, mem_probes = [], []
        for _, r in runs:
            t = next((t for t in r["tests"] if t["name"] == name), None)
            if t is None:
                continue
            scores.append(t.get("score"))
            probe = (t.get("disturbance") or {}).get("cpuProbeMs") or {}
            pair = [v for v in (probe.get("before"), probe.get("after")) if v is not None]
            probes.append(statistics.fmean(pair) if pair else None)
            mem = (t.get("disturbance") or {}).get("memoryProbeMs") or {}
            pair = [v for v in (mem.get("before"), mem.get("after")) if v is not None]
            mem_probes.append(statistics.fmean(pair) if pair else None)
            spreads.append(t.get("spread"))
            at_max += bool(t.get("stageMaxReached"))
            cps = [ramp["regression"]["changePoint"] for ramp in t.get("ramps", [])
                   if ramp.get("regression") and ramp["regression"].get("changePoint") is not None]
            n_ramps.append(len(cps))
            if len(cps) >= 2:
                within.append(cv(cps))
                means.append(statistics.fmean(cps))
                rest = statistics.fmean(cps[1:])
                if rest:
                    first_ratio.append(cps[0] / rest)
        pooled_within = math.sqrt(statistics.fmean([w * w for w in within])) if within else None
        ramps = statistics.fmean(n_ramps) if n_ramps else 0
        expected = pooled_within / math.sqrt(ramps) if pooled_within is not None and ramps else None
        rows.append((name,
                     " ".join("-" if s is None else f"{s:.0f}" for s in scores),
                     pct(cv(scores)),
                     f"{ramps:.1f}",
                     pct(pooled_within),
                     pct(cv(means)),
                     pct(expected),
                     "-" if not first_ratio else f"{statistics.median(first_ratio):.2f}",
                     "-" if not [s for s in spreads if s is not None]
                     else pct(statistics.median([s for s in spreads if s is not None])),
                     f"{at_max}/{len(scores)}",
                     " ".join("-" if p is None else f"{p:.1f}" for p in probes),
                     pct(cv(probes)),
                     correlation(scores, [None if p is None else 1 / p for p in probes]),
                     " ".join("-" if p is None else f"{p:.1f}" for p in mem_probes),
                     pct(cv(mem_probes)),
                     correlation(scores, [None if p is None else 1 / p for p in mem_probes])))
    for _, r in runs:
        s = r.get("suite")
        suite.append(s["score"] if s else None)
    rows.append(("suite", " ".join("-" if s is None else f"{s:.1f}" for s in suite), pct(cv(suite)),
                 "", "", "", "", "", "", "", "", "", "", "", "", ""))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
