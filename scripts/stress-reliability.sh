#!/usr/bin/env bash
# Measures whether `schedbench stress` cries wolf: runs the default stress run (every
# scenario, --duration seconds, a fresh seed each) RUNS times on the unchanged core, with
# LOAD busy loops (`yes > /dev/null`) beside it, and prints a Markdown table: each run's
# seed, exit status, the load average when it ended, and what failed. Exit 1 if any run
# did not exit 0. Builds schedbench and schedbench-builtins in release with the StressHooks
# trait first (the build the README names), unless BINARY names the tool of one. With NICE,
# the stress runs at that niceness while the busy loops run at 0: a CI job sharing a runner.
#   scripts/stress-reliability.sh                      10 runs of 60 s, no busy loops
#   LOAD=4 scripts/stress-reliability.sh               beside 4 busy loops
#   LOAD=6 NICE=10 scripts/stress-reliability.sh       beside 6 busy loops, at nice 10
#   RUNS=3 DURATION=30 scripts/stress-reliability.sh   shorter
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
runs="${RUNS:-10}"
duration="${DURATION:-60}"
load="${LOAD:-0}"
nice="${NICE:-0}"
if [ -z "${BINARY:-}" ]; then
    ensure_debian_packages libjemalloc-dev libsqlite3-dev pkg-config
    for product in schedbench-builtins schedbench; do
        swift build -c release --traits StressHooks --scratch-path .build-release-stress --product "$product" >/dev/null
    done
    BINARY=.build-release-stress/release/schedbench
fi
scratch="$(mktemp -d)"
loops=()
cleanup() {
    for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT
for _ in $(seq 1 "$load"); do
    yes > /dev/null &
    loops+=($!)
done
echo "| run | seed | exit | load (1 min) at the end | failed |"
echo "|---:|---:|---:|---:|---|"
failures=0
for run in $(seq 1 "$runs"); do
    seed=$(python3 -c 'import random; print(random.getrandbits(62))')
    status=0
    nice -n "$nice" "$BINARY" stress --duration "$duration" --seed "$seed" --out "$scratch/run-$run" --quiet >"$scratch/run-$run.log" 2>&1 || status=$?
    uptime_load=$(cut -d' ' -f1 /proc/loadavg)
    failed=$(scripts/stress-violations.py "$scratch/run-$run/stress.csv")
    [ "$status" -eq 0 ] || failures=$((failures + 1))
    echo "| $run | $seed | $status | $uptime_load | $failed |"
    if [ "$status" -ne 0 ]; then sed 's/^/    /' "$scratch/run-$run.log" | tail -20 >&2; fi
done
echo
echo "$failures of $runs runs failed (duration $duration s, $load busy loops, nice $nice)"
[ "$failures" -eq 0 ]
