#!/usr/bin/env bash
# Fails when a function of the runtime's or the peers' modules (BenchModel, BenchChild,
# SchedulerBench, SchedulerBenchPeers) calls the Swift runtime's executor
# check (swift_task_isCurrentExecutor), which Swift 6 emits for an actor-isolated closure
# handed to code compiled in the Swift 5 mode (the core): a workload's closure that does
# it costs every event hundreds of instructions the scheduler under test does not have
# (see MainQueue in SchedulerBench). Reads the disassembly of a built measuring executable.
#   scripts/check-isolation-checks.sh .build/release/schedbench-builtins
set -euo pipefail
binary="${1:?usage: scripts/check-isolation-checks.sh <measuring executable, e.g. schedbench-builtins>}"
command -v objdump >/dev/null || { echo "objdump (binutils) is needed to read $binary" >&2; exit 1; }
# Mangled module prefixes: length + name.
modules='\$s(10BenchModel|10BenchChild|14SchedulerBench|19SchedulerBenchPeers)'
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
