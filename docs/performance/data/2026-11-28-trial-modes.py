#!/usr/bin/env python3
"""The slowed validation case's trials on 2026-11-28 (evening): how they fall in two modes,
and how each way of summarizing a round's five trials would fare in 10-round gates.

Reads 2026-11-28-trial-modes.csv (100 rounds of three processes: the unchanged build,
the same build with a fixed spin of 66 turns, the unchanged build again; 5 timed trials
each) and prints, per estimator, the spread of the per-round log ratios and how many of
ten consecutive 10-round "gates" would call the case worse than the 5% threshold: on its
own (one-sided, 90%, as `Comparison.decisionConfidence`) and at the level of Holm's first
step over the validation gate's 90 hypotheses (0.10 / 90), which is what the shipped gate
asks of the one row that stands out; and how many rounds that level would need for 90%
power against a case 10% slower, at each estimator's spread (normal approximation).
Pure Python, no third-party modules.

    python3 docs/performance/data/2026-11-28-trial-modes.py [ns_per_event|cpu_ns_per_event]
"""
import csv
import math
import os
import random
import statistics
import sys

METRIC = sys.argv[1] if len(sys.argv) > 1 else "ns_per_event"
THRESHOLD = math.log(1.05)
# Student's t with 9 degrees of freedom: the 0.90 and 1 - 0.10/90 quantiles.
T9 = {"per row": 1.3830, "Holm's first step": 4.2252}
LEVELS = {"per row": 0.10, "Holm's first step": 0.10 / 90}
# The standard normal's 1 - 0.10/90 and 0.90 quantiles, and the margin a case 10% slower
# has over the 5% threshold (in logarithms).
Z_LEVEL, Z_POWER, MARGIN = 3.0588, 1.2816, math.log(1.10) - math.log(1.05)

trials = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "2026-11-28-trial-modes.csv")) as file:
    for row in csv.DictReader(file):
        trials.setdefault((row["process"], int(row["round"])), []).append(float(row[METRIC]))
rounds = sorted({r for _, r in trials})


def quantile(values, p):
    ordered = sorted(values)
    position = (len(ordered) - 1) * p
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def geometric_mean(values):
    return math.exp(statistics.mean(math.log(v) for v in values))


PER_ROUND = {"geometric mean (shipped)": geometric_mean, "median": statistics.median, "minimum": min}
POOLED = {"10th percentile of all trials": 0.10, "25th percentile of all trials": 0.25}


def paired_t(base, new, summary):
    """t of the mean per-round log ratio against the threshold, and the ratio."""
    ratios = [math.log(summary(n)) - math.log(summary(b)) for b, n in zip(base, new)]
    mean = statistics.mean(ratios)
    return math.exp(mean), (mean - THRESHOLD) / (statistics.stdev(ratios) / math.sqrt(len(ratios))), statistics.stdev(ratios)


def bootstrap_p(base, new, p, resamples=2000, seed=1):
    """One-sided p of "the pooled p-quantile ratio is at most the threshold", resampling
    whole rounds (a round's two processes stay together)."""
    rng = random.Random(seed)
    def log_ratio(indices):
        return math.log(quantile([v for i in indices for v in new[i]], p)) - math.log(quantile([v for i in indices for v in base[i]], p))
    everything = range(len(base))
    at_most = sum(log_ratio([rng.randrange(len(base)) for _ in everything]) <= THRESHOLD for _ in range(resamples))
    return math.exp(log_ratio(everything)), (at_most + 1) / (resamples + 1)


for label, other in (("A/A", "baseline-again"), ("slowed", "candidate")):
    print(f"{label} ({METRIC}, 10 gates of 10 rounds):")
    for name, summary in PER_ROUND.items():
        _, _, spread = paired_t([trials["baseline", r] for r in rounds], [trials[other, r] for r in rounds], summary)
        gates = [paired_t([trials["baseline", r] for r in rounds[g:g + 10]], [trials[other, r] for r in rounds[g:g + 10]], summary)
                 for g in range(0, len(rounds), 10)]
        ratios = [ratio for ratio, _, _ in gates]
        caught = {level: sum(t > critical for _, t, _ in gates) for level, critical in T9.items()}
        needed = ((Z_LEVEL + Z_POWER) * spread / MARGIN) ** 2
        print(f"  {name:31s} per-round SD {spread:.3f}  ratios {min(ratios):.3f}-{max(ratios):.3f}  "
              + "  ".join(f"{level}: {count}/10" for level, count in caught.items()) + f"  rounds for 90% power: {needed:.0f}")
    for name, p in POOLED.items():
        gates = [bootstrap_p([trials["baseline", r] for r in rounds[g:g + 10]], [trials[other, r] for r in rounds[g:g + 10]], p)
                 for g in range(0, len(rounds), 10)]
        ratios = [ratio for ratio, _ in gates]
        caught = {level: sum(pvalue < alpha for _, pvalue in gates) for level, alpha in LEVELS.items()}
        print(f"  {name:31s} (bootstrap)        ratios {min(ratios):.3f}-{max(ratios):.3f}  "
              + "  ".join(f"{level}: {count}/10" for level, count in caught.items()))
