#!/usr/bin/env python3
"""Summarises package-benchmark's text output: per benchmark, the median (p50) wall
clock per event, the median allocations per event, and the ratio to the in-process
reference `raw serialQueue.async` (both from the same run, so machine drift cancels).

usage: bench_ratios.py OUTPUT.txt
"""
import re
import sys

REFERENCE = "raw serialQueue.async"
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
    try:
        return float(text.replace(",", ""))
    except (TypeError, ValueError):
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results = parse(sys.argv[1])
    if not results:
        sys.exit(f"error: no benchmark results found in {sys.argv[1]}")
    wall = {name: number(r.get("Time (wall clock) (ns) *")) for name, r in results.items()}
    reference = wall.get(REFERENCE)
    print(f"| benchmark | ns/event (p50) | × raw async | mallocs/event (p50) |")
    print(f"|---|---:|---:|---:|")
    for name in sorted(results):
        ns = wall[name]
        ratio = f"{ns / reference:.2f}" if ns is not None and reference else "–"
        mallocs = results[name].get("Malloc (total) *", "–")
        print(f"| {name} | {ns if ns is not None else '–':>} | {ratio} | {mallocs} |")
    if reference is None:
        print(f"note: '{REFERENCE}' was not in this run, so no ratios", file=sys.stderr)


if __name__ == "__main__":
    main()
