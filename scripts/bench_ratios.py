#!/usr/bin/env python3
"""Summarises package-benchmark's text output: per benchmark, the median (p50) wall
clock per event, the median allocations per event, and the ratio to the in-process
reference `raw serialQueue.async` (both from the same run, so machine drift cancels).

Given several runs' outputs, it divides within each run first, then reports the median
of those ratios (and each run's), since wall time on a shared 2-core machine moves by
1.5x and more from run to run.

The alternating benchmarks (`... vs raw async, alternating`) measure their own ratio to
raw async sample by sample; they get a table of their own: each run's median sample and
the median of those.

usage: bench_ratios.py OUTPUT.txt [OUTPUT.txt ...]
"""
import re
import sys

REFERENCE = "raw serialQueue.async"
ALTERNATING = "x raw async, same moment (1/1000)"
ROW = re.compile(r"│\s*(?P<metric>[^│]+?)\s*│\s*(?P<p0>[^│]+?)\s*│\s*(?P<p25>[^│]+?)\s*│\s*(?P<p50>[^│]+?)\s*│")


def parse(path):
    results, current = {}, None
    with open(path, errors="replace") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line and "│" not in line and not line[0] in " ═╒╞├╘=[#" and not line.startswith(
                ("Build", "Warning", "Note", "Host", "Baseline", "Running", "CoreBenchmarks", "rc=", "\x1b")
            ):
                current = line.strip()
                continue
            match = ROW.match(line)
            if match and current and match["metric"] != "Metric":
                results.setdefault(current, {})[match["metric"]] = match["p50"]
    return results


def number(text):
    if text is None:
        return None
    try:
        return float(text.replace(",", ""))
    except (TypeError, ValueError):
        return None


def ratios(results):
    """(ns per event, ratio to the reference) per benchmark of one run."""
    wall = {name: number(r.get("Time (wall clock) (ns) *")) for name, r in results.items() if ALTERNATING not in r}
    reference = wall.get(REFERENCE)
    return {
        name: (ns, ns / reference if ns is not None and reference else None)
        for name, ns in wall.items()
    }


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = []
    for path in sys.argv[1:]:
        results = parse(path)
        if not results:
            sys.exit(f"error: no benchmark results found in {path}")
        runs.append(results)
    if len(runs) == 1:
        results = runs[0]
        table = ratios(results)
        print("| benchmark | ns/event (p50) | × raw async | mallocs/event (p50) |")
        print("|---|---:|---:|---:|")
        for name in sorted(table):
            ns, ratio = table[name]
            shown = f"{ratio:.2f}" if ratio is not None else "–"
            mallocs = results[name].get("Malloc (total) *", "–")
            print(f"| {name} | {ns if ns is not None else '–'} | {shown} | {mallocs} |")
    else:
        tables = [ratios(results) for results in runs]
        names = sorted(set().union(*tables))
        print(f"| benchmark | × raw async, median of {len(runs)} runs | each run | ns/event (p50), each run | mallocs/event (p50) |")
        print("|---|---:|---|---|---:|")
        for name in names:
            per_run = [table.get(name, (None, None)) for table in tables]
            ratios_seen = [ratio for _, ratio in per_run if ratio is not None]
            shown = f"{median(ratios_seen):.2f}" if ratios_seen else "–"
            each = ", ".join(f"{ratio:.2f}" if ratio is not None else "–" for _, ratio in per_run)
            times = ", ".join(f"{ns:g}" if ns is not None else "–" for ns, _ in per_run)
            mallocs = next((r[name].get("Malloc (total) *") for r in runs if name in r), "–")
            print(f"| {name} | {shown} | {each} | {times} | {mallocs} |")
    alternating = sorted({name for results in runs for name, r in results.items() if ALTERNATING in r})
    if alternating:
        print()
        print(f"| alternating benchmark | × raw async at the same moment, median of {len(runs)} runs | each run (median sample) |")
        print("|---|---:|---|")
        for name in alternating:
            each = [number(r[name][ALTERNATING]) for r in runs if name in r]
            each = [value / 1000 for value in each if value is not None]
            shown = f"{median(each):.3f}" if each else "–"
            print(f"| {name} | {shown} | {', '.join(f'{value:.3f}' for value in each)} |")
    if any(REFERENCE not in results for results in runs):
        print(f"note: '{REFERENCE}' was missing from a run, so some ratios are missing", file=sys.stderr)


if __name__ == "__main__":
    main()
