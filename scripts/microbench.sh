#!/usr/bin/env bash
# Runs the core's package-benchmark micro suite (Benchmarks/) and prints each benchmark's
# median cost per event and its ratio to raw `DispatchQueue.async` measured in the same run.
#   scripts/microbench.sh                      the whole suite (~3 minutes; first build ~3 more)
#   scripts/microbench.sh --filter 'observeOn.*' only benchmarks whose whole name matches the regex
#   scripts/microbench.sh --repeat 3 [...]     three runs; ratios are divided within each run,
#                                              then the median over the runs is reported
# Output is kept in results/bench-<UTC time>.txt. The harness (schedbench) is scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
ensure_debian_packages python3

repeat=1
arguments=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --repeat)
            [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || { echo "error: --repeat needs a positive whole number" >&2; exit 64; }
            repeat="$2"
            shift 2
            ;;
        *)
            arguments+=("$1")
            shift
            ;;
    esac
done

mkdir -p results
outputs=()
for ((run = 1; run <= repeat; run++)); do
    out="results/bench-$(date -u +%Y%m%dT%H%M%SZ).txt"
    (cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --no-progress "${arguments[@]}") | tee "$out"
    outputs+=("$out")
done
echo
python3 scripts/bench_ratios.py "${outputs[@]}"
echo "raw output: ${outputs[*]}"
