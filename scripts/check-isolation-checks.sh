#!/usr/bin/env bash
# Fails when a function of the engine's modules (BenchModel, BenchMeasure, BenchStress,
# BenchAnalysis, BenchWorkflows, SchedulerBench, SchedulerBenchPeers) or of the command line calls the Swift runtime's executor
# check (swift_task_isCurrentExecutor), which Swift 6 emits for an actor-isolated closure
# handed to code compiled in the Swift 5 mode (the core): a workload's closure that does
# it costs every event hundreds of instructions the scheduler under test does not have
# (see MainQueue in BenchMeasure). Reads the disassembly of a built schedbench.
#   scripts/check-isolation-checks.sh .build/release/schedbench
set -euo pipefail
binary="${1:?usage: scripts/check-isolation-checks.sh <schedbench executable>}"
command -v objdump >/dev/null || { echo "objdump (binutils) is needed to read $binary" >&2; exit 1; }
# Mangled module prefixes: length + name.
modules='\$s(10BenchModel|12BenchMeasure|11BenchStress|13BenchAnalysis|14BenchWorkflows|14SchedulerBench|19SchedulerBenchPeers|13SchedBenchCLI)'
found="$(objdump -d --no-show-raw-insn "$binary" \
    | awk -v pattern="^[0-9a-f]+ <$modules" '
        /^[0-9a-f]+ <.*>:$/ { inside = ($0 ~ pattern); name = $2; next }
        inside && /swift_task_isCurrentExecutor/ { print name }' \
    | sort -u)"
if [ -n "$found" ]; then
    echo "engine functions that check their executor at run time (an actor-isolated closure passed to the core; use MainQueue.async):" >&2
    echo "$found" | sed 's/^/  /' >&2
    exit 1
fi
echo "isolation checks: none in the engine's functions ($binary)"
