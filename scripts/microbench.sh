#!/usr/bin/env bash
# Runs the core's package-benchmark micro suite (Benchmarks/) and prints each benchmark's
# median cost per event and its ratio to raw `DispatchQueue.async` measured in the same run.
#   scripts/microbench.sh                      the whole suite (~4 minutes; first build ~3 more)
#   scripts/microbench.sh --filter 'observeOn' only benchmarks whose name matches
# Output is kept in results/bench-<UTC time>.txt. The harness (schedbench) is scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
ensure_debian_packages python3

mkdir -p results
out="results/bench-$(date -u +%Y%m%dT%H%M%SZ).txt"
(cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --no-progress "$@") | tee "$out"
echo
python3 scripts/bench_ratios.py "$out"
echo "raw output: $out"
