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
# what a user running `stress` with no options would see. With POINTS=1, instead runs each
# bug's scenario with no perturbation (`--points none`), with every stress point (the
# default), and with each point of the files the bug edits alone, over SEEDS seeds: which
# points' perturbation the catch depends on (how the core's stress points were chosen).
#   scripts/stress-catalogue.sh              10 seeds (1…10)
#   SEEDS=3 scripts/stress-catalogue.sh      fewer
#   DEFAULT=1 scripts/stress-catalogue.sh    each bug under the default stress run
#   POINTS=1 SEEDS=3 scripts/stress-catalogue.sh   each bug without, with all, with each of its points
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
if [ "${POINTS:-0}" = "1" ]; then
    python3 - "$tool" "$seeds" "$share" "$scratch" <<'PY'
import csv, os, re, statistics, subprocess, sys
tool, seeds, share, scratch = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
bugs = {}
for line in open("scripts/seeded-bugs.txt", encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    fields = line.rstrip("\n").split("\t")
    entry = bugs.setdefault(fields[0], {"files": set(), "scenario": fields[-1].split(":")[0]})
    entry["files"].add(fields[1])
point_call = re.compile(r"stressPoint\(\.(\w+)\)|awaitNextChunk\([^)]*at: \.(\w+)\)")
def points_in(path):
    return sorted({a or b for a, b in point_call.findall(open(path, encoding="utf-8").read())})
def caught(bug, scenario, points):
    times = []
    for seed in range(1, seeds + 1):
        out = os.path.join(scratch, f"{bug}-{points or 'all'}-{seed}")
        command = [tool, "stress", "--scenario", scenario, "--seed", str(seed), "--duration", share, "--out", out, "--quiet"]
        if points:
            command += ["--points", points]
        subprocess.run(command, env=dict(os.environ, RXSCHEDULERS_SEEDED_BUG=bug), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        path = os.path.join(out, "stress.csv")
        rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
        failed = [r for r in rows if r["status"] == "failed"]
        if failed:
            times.append(float(failed[0]["seconds_to_failure"]))
    return f"{len(times)}/{seeds}" + (f" ({statistics.median(times):.2f} s)" if times else "")
print(f"| seeded bug | scenario | no perturbation | every point | each point of its files alone (caught of {seeds} seeds, median seconds) |")
print("|---|---|---|---|---|")
for bug, entry in bugs.items():
    points = sorted({point for path in entry["files"] for point in points_in(path)})
    alone = "; ".join(f"{point}: {caught(bug, entry['scenario'], point)}" for point in points) or "(its files have none)"
    print(f"| `{bug}` | {entry['scenario']} | {caught(bug, entry['scenario'], 'none')} | {caught(bug, entry['scenario'], None)} | {alone} |", flush=True)
PY
    exit 0
fi
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
