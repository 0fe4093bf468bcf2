#!/usr/bin/env bash
# Measures the seeded-bug catalogue (scripts/seeded-bugs.txt): for each seeded bug
# (RXSCHEDULERS_SEEDED_BUG), runs the scenario meant to catch it with the share of the
# default budget one scenario gets (60 s / 11 scenarios) over SEEDS seeds, and prints a
# Markdown table: seeds caught and the median seconds to the first violation. Builds the
# seeded copy of the tree first (scripts/seeded-bugs.py build), unless BINARY names one; the
# debug build's tool (.build/debug/schedbench, or TOOL) drives it through SCHEDBENCH_TARGET.
# (scripts/seeded-bugs.py check is the pass/fail check of one seed that scripts/test.sh runs.)
# With DEFAULT=1, instead runs each bug under the default `schedbench stress` (every
# scenario, 60 s, seed 1 unless SEED says otherwise) and prints which scenarios caught it:
# what a user running `stress` with no options would see.
#   scripts/stress-catalogue.sh              10 seeds (1…10)
#   SEEDS=3 scripts/stress-catalogue.sh      fewer
#   DEFAULT=1 scripts/stress-catalogue.sh    each bug under the default stress run
#   BINARY=path scripts/stress-catalogue.sh  a seeded build (schedbench-builtins) made earlier
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
ensure_debian_packages libjemalloc-dev libsqlite3-dev pkg-config
binary="${BINARY:-$(scripts/seeded-bugs.py build)}"
tool="${TOOL:-.build/debug/schedbench}"
[ -x "$tool" ] || swift build --product schedbench >&2
export SCHEDBENCH_TARGET="$binary"
seeds="${SEEDS:-10}"
share=$(python3 -c 'print(60 / 11)')
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# bug → scenario, from the catalogue.
catalogue=()
while IFS=$'\t' read -r bug scenario _; do catalogue+=("$bug $scenario"); done < <(scripts/seeded-bugs.py list)
if [ "${DEFAULT:-0}" = "1" ]; then
    seed="${SEED:-1}"
    echo "| seeded bug | default stress (60 s, seed $seed) | caught by |"
    echo "|---|---|---|"
    for entry in "${catalogue[@]}"; do
        read -r bug _ <<<"$entry"
        status=0
        RXSCHEDULERS_SEEDED_BUG="$bug" "$tool" stress --seed "$seed" --out "$scratch/default-$bug" --quiet >/dev/null 2>&1 || status=$?
        caught_by=$(scripts/stress-violations.py "$scratch/default-$bug/stress.csv")
        case "$status" in
            3) verdict="**caught**" ;;
            0) verdict="missed" ;;
            *) verdict="error (exit $status)" ;;
        esac
        echo "| \`$bug\` | $verdict | $caught_by |"
    done
    exit 0
fi

echo "| seeded bug | scenario | caught (of $seeds seeds) | median seconds to catch | first violation (seed 1) |"
echo "|---|---|---:|---:|---|"
for entry in "${catalogue[@]}"; do
    read -r bug scenario <<<"$entry"
    for seed in $(seq 1 "$seeds"); do
        RXSCHEDULERS_SEEDED_BUG="$bug" "$tool" stress --scenario "$scenario" --seed "$seed" --duration "$share" \
            --out "$scratch/$bug-$seed" --quiet >/dev/null 2>&1 || true
    done
    python3 - "$scratch" "$bug" "$seeds" "$scenario" <<'PY'
import csv, statistics, sys, os
scratch, bug, seeds, scenario = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
times, first = [], ""
for seed in range(1, seeds + 1):
    path = os.path.join(scratch, f"{bug}-{seed}", "stress.csv")
    if not os.path.exists(path):
        continue
    rows = list(csv.DictReader(open(path)))
    failed = [r for r in rows if r["status"] == "failed"]
    if failed:
        times.append(float(failed[0]["seconds_to_failure"]))
        if seed == 1:
            first = ", ".join(sorted({r["name"] for r in failed if r["record"] == "violation" and r["count"] != "0"}))
median = f"{statistics.median(times):.2f}" if times else "-"
print(f"| `{bug}` | {scenario} | {len(times)} | {median} | {first} |")
PY
done
