#!/usr/bin/env bash
# Checks the core's package-benchmark micro suite (Benchmarks/) against the thresholds
# stored in Benchmarks/Thresholds/, for CI.
#   scripts/microbench-check.sh            run the suite and check it (exit non-zero on a regression)
#   scripts/microbench-check.sh --update   run the suite and store fresh thresholds (then commit them)
#   scripts/microbench-check.sh --filter 'observeOn'   any further options go to package-benchmark
# Only malloc counts are checked by default: they repeat exactly between runs on any
# machine, while wall-clock figures from another session or runner do not (for time, use
# `schedbench gate`, which measures both builds side by side). Override with
# MICROBENCH_METRICS="mallocCountTotal wallClock". The suite takes ~4 minutes, and the
# first build ~3 more.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

metrics=()
for metric in ${MICROBENCH_METRICS:-mallocCountTotal}; do metrics+=(--metric "$metric"); done

cd Benchmarks
if [ "${1:-}" = "--update" ]; then
    shift
    swift package --allow-writing-to-package-directory benchmark thresholds update --no-progress "${metrics[@]}" "$@"
    echo "stored thresholds in Benchmarks/Thresholds/; commit them"
else
    swift package benchmark thresholds check --no-progress "${metrics[@]}" "$@"
fi
