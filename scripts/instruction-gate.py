#!/usr/bin/env python3
"""The instruction-count gate of the core's hot paths: counts the instructions per event of
each case of HotPathInstructions with callgrind, on a release build, and fails when one
exceeds its stored threshold (Benchmarks/InstructionThresholds.json) by more than its
tolerance.

Instructions, not time: callgrind's count does not depend on the machine's load or on other
processes, so the gate can run on a shared CI runner. A case runs at two sizes and the
difference is divided by the difference in events, so fixed costs cancel. A case whose events
stay on one thread repeats exactly and gets a tight tolerance; on a case whose events cross
threads the count depends on how the drain's batches form (valgrind runs one thread at a
time), so it is the minimum of three runs, with a wider tolerance. A run of such a case can
read far above its minimum (observeOn.concurrent.drain's runs span 233-317 as its batches
fall, their minimum 233-272), so its threshold is the median of the runs it was set from,
not their minimum, and "improved" needs every run below it. The thresholds file records
both, and the spread they were set from.

    scripts/instruction-gate.py                   build, count and check (exit 1 on a regression)
    scripts/instruction-gate.py --update          count and store as the thresholds (commit them)
    scripts/instruction-gate.py --cases a,b       only those cases
    scripts/instruction-gate.py --self-test       check that the gate fails on a seeded 20%
                                                  slowdown of one path (built from a copy of HEAD)

The build passes -gdwarf-4 to C (and -dwarf-version=4 to Swift, which emits DWARF 4 anyway):
valgrind 3.19 (Debian 12) cannot read the DWARF 5 that clang writes for the package's C
targets ("unhandled dwarf2 abbrev form code 0x25") and gives up on the whole binary. To run
callgrind on your own builds, build them the same way:
    swift build -c release -Xcc -gdwarf-4 -Xswiftc -dwarf-version=4
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THRESHOLDS = os.path.join(ROOT, "Benchmarks", "InstructionThresholds.json")
SIZES = (20_000, 40_000)
CROSS_THREAD_RUNS = 3
# Default tolerances for new cases: one-thread counts repeat exactly (the margin covers a
# toolchain's or a dependency's small changes); cross-thread minimums moved 1% in 12 runs.
TOLERANCE = {"one-thread": 0.02, "cross-thread": 0.08}
# The self-test's slowdown: extra work per element in `map`, sized to 20% of chain.subject.
SLOWED_CASE = "chain.subject"
SLOWED_FILE = "Sources/RxSchedulers/Operators/Map.swift"


def build(tree, scratch):
    command = [
        "swift", "build", "-c", "release", "--product", "HotPathInstructions", "--scratch-path", scratch,
        "-Xswiftc", "-dwarf-version=4", "-Xcc", "-gdwarf-4",
    ]
    result = subprocess.run(command, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        sys.exit(f"error: building HotPathInstructions failed ({' '.join(command)})")
    return os.path.join(scratch, "release", "HotPathInstructions")


def cases(binary):
    listed = subprocess.run([binary, "list"], stdout=subprocess.PIPE, text=True, check=True).stdout
    return {name: kind for name, kind, _ in (line.split("\t") for line in listed.splitlines())}


def count(binary, case, events, scratch):
    out = os.path.join(scratch, f"callgrind.{case}.{events}")
    command = ["valgrind", "--tool=callgrind", "--fair-sched=yes", "--instr-atstart=no", f"--callgrind-out-file={out}", "--quiet", binary, case, str(events)]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    totals = [line for line in open(out, encoding="utf-8") if line.startswith("totals:")] if os.path.exists(out) else []
    if result.returncode != 0 or not totals:
        sys.stderr.write(result.stdout[-3000:])
        sys.exit(f"error: {case} at {events} events did not run under callgrind ({' '.join(command)})")
    return int(totals[-1].split()[1])


def per_event(binary, case, kind, scratch):
    """Instructions per event, and the runs it came from."""
    runs = []
    for _ in range(CROSS_THREAD_RUNS if kind == "cross-thread" else 1):
        small, large = (count(binary, case, events, scratch) for events in SIZES)
        runs.append((large - small) / (SIZES[1] - SIZES[0]))
    return min(runs), runs


def measure(binary, chosen):
    listed = cases(binary)
    unknown = set(chosen) - set(listed)
    if unknown:
        sys.exit(f"error: unknown case(s) {', '.join(sorted(unknown))}; the cases: {', '.join(listed)}")
    scratch = tempfile.mkdtemp(prefix="instruction-gate-")
    try:
        return {case: (kind, *per_event(binary, case, kind, scratch)) for case, kind in listed.items() if not chosen or case in chosen}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def load_thresholds():
    if not os.path.exists(THRESHOLDS):
        return {}
    try:
        return json.load(open(THRESHOLDS, encoding="utf-8"))["cases"]
    except (ValueError, KeyError) as problem:
        sys.exit(f"error: {THRESHOLDS} is not a thresholds file ({problem}); restore it from git or run --update")


def check(measured, thresholds):
    """Prints a table; returns the cases over their threshold."""
    regressed = []
    print("| case | kind | instructions per event | threshold | tolerance | change | verdict |")
    print("|---|---|---:|---:|---:|---:|---|")
    for case, (kind, value, runs) in measured.items():
        stored = thresholds.get(case)
        if stored is None:
            print(f"| {case} | {kind} | {value:.1f} | - | - | - | no threshold: run --update |")
            regressed.append(case)
            continue
        limit, tolerance = stored["instructions_per_event"], stored["tolerance"]
        change = value / limit - 1
        if change > tolerance:
            verdict = "**regressed**"
            regressed.append(case)
        elif max(runs) / limit - 1 < -tolerance:
            verdict = "improved: lower the threshold (--update)"
        else:
            verdict = "ok"
        shown = f"{value:.1f}" + (f" (runs {', '.join(f'{run:.1f}' for run in runs)})" if len(runs) > 1 else "")
        print(f"| {case} | {kind} | {shown} | {limit:.1f} | {tolerance:.0%} | {change:+.1%} | {verdict} |")
    return regressed


def update(measured):
    thresholds = load_thresholds()
    for case, (kind, value, runs) in measured.items():
        previous = thresholds.get(case, {})
        thresholds[case] = {
            "kind": kind,
            "instructions_per_event": round(value if kind == "one-thread" else statistics.median(runs), 1),
            "tolerance": previous.get("tolerance", TOLERANCE[kind]),
            "runs": [round(run, 1) for run in runs],
        }
    document = {
        "about": "Instructions per event of the core's hot paths (HotPathInstructions under callgrind, release); "
        "checked by scripts/instruction-gate.py, written by scripts/instruction-gate.py --update.",
        "sizes": list(SIZES),
        "cases": dict(sorted(thresholds.items())),
    }
    with open(THRESHOLDS, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=2)
        out.write("\n")
    print(f"stored {len(measured)} thresholds in {os.path.relpath(THRESHOLDS, ROOT)}; commit them")


def slowed_tree(scratch):
    """A copy of HEAD whose `map` does extra work per element: SELF_TEST_TURNS turns of a
    loop (read from the environment when the program starts), so one build serves every
    size of slowdown."""
    tree = os.path.join(scratch, "tree")
    os.makedirs(tree)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout
    subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
    path = os.path.join(tree, SLOWED_FILE)
    source = open(path, encoding="utf-8").read()
    # A recurrence the optimizer cannot fold into a formula, on a global it cannot drop.
    slowdown = (
        "#if canImport(Glibc)\nimport Glibc\n#endif\n"
        "@exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var _gateSelfTestSink = 0\n"
        "@usableFromInline nonisolated(unsafe) let _gateSelfTestTurns = getenv(\"SELF_TEST_TURNS\").flatMap { Int(String(cString: $0)) } ?? 0\n"
        "@inline(never) @usableFromInline func _gateSelfTestWork() {\n"
        "    var value = _gateSelfTestSink\n"
        "    for turn in 0..<_gateSelfTestTurns { value = value &* 31 &+ turn }\n"
        "    _gateSelfTestSink = value\n"
        "}\n\n"
    )
    # Every element through map pays the work, after it was passed on.
    per_element = "        downstream.on(.next(result))\n"
    if source.count(per_element) != 1:
        sys.exit(f"error: the self-test cannot find map's per-element call in {SLOWED_FILE}; update the anchor")
    source = slowdown + source.replace(per_element, per_element + "        _gateSelfTestWork()\n")
    open(path, "w", encoding="utf-8").write(source)
    return tree


def calibrated_turns(binary, target):
    """The turns of the seeded work that come nearest `target` instructions more per
    element of SLOWED_CASE, found by measuring (the compiler unrolls the loop, so its cost
    is not linear in the turns): a bisection over 0-1024 turns, about ten counts."""
    baseline = load_thresholds()[SLOWED_CASE]["instructions_per_event"]
    counted = {}

    def extra(turns):
        if turns not in counted:
            os.environ["SELF_TEST_TURNS"] = str(turns)
            counted[turns] = measure(binary, [SLOWED_CASE])[SLOWED_CASE][1] - baseline
        return counted[turns]
    low, high = 0, 1024
    if extra(low) >= target:
        return low
    while high - low > 1:
        middle = (low + high) // 2
        if extra(middle) < target:
            low = middle
        else:
            high = middle
    return low if target - extra(low) < extra(high) - target else high


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="store the counts as the thresholds")
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--binary", help="a built HotPathInstructions (default: build it)")
    parser.add_argument("--self-test", action="store_true", help="the gate must fail on a seeded 20%% slowdown of one path")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("error: valgrind is not installed (apt-get install valgrind)")
    chosen = [case.strip() for case in options.cases.split(",") if case.strip()]
    if options.cases and not chosen:
        parser.error(f"--cases {options.cases!r} names no case")
    if options.self_test:
        return self_test()
    binary = options.binary or build(ROOT, os.path.join(ROOT, ".build-instructions"))
    measured = measure(binary, chosen)
    if options.update:
        update(measured)
        return
    thresholds = load_thresholds()
    regressed = check(measured, thresholds)
    stale = sorted(set(thresholds) - set(measured)) if not chosen else []
    if stale:
        print(f"\ninstruction gate: {len(stale)} threshold(s) name cases HotPathInstructions no longer lists: "
              f"{', '.join(stale)}; remove them from {os.path.relpath(THRESHOLDS, ROOT)} or restore the cases", file=sys.stderr)
        sys.exit(1)
    if regressed:
        print(f"\ninstruction gate: {len(regressed)} case(s) over threshold: {', '.join(regressed)}", file=sys.stderr)
        sys.exit(1)
    print(f"\ninstruction gate: {len(measured)} cases within their thresholds")


def self_test():
    thresholds = load_thresholds()
    if SLOWED_CASE not in thresholds:
        sys.exit(f"error: no threshold for {SLOWED_CASE}: run --update first")
    target = 0.2 * thresholds[SLOWED_CASE]["instructions_per_event"]
    scratch = tempfile.mkdtemp(prefix="instruction-gate-self-test-")
    try:
        tree = slowed_tree(scratch)
        binary = build(tree, os.path.join(scratch, "build"))
        turns = calibrated_turns(binary, target)
        os.environ["SELF_TEST_TURNS"] = str(turns)
        measured = measure(binary, [SLOWED_CASE, "chain.range", "mpsc.enqueueDequeue"])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"self-test: `map` does {turns} turns of extra work per element, the nearest to {target:.0f} more instructions "
          f"(20% of {SLOWED_CASE})")
    regressed = check(measured, thresholds)
    expected = {SLOWED_CASE}
    slowed = measured[SLOWED_CASE][1] / thresholds[SLOWED_CASE]["instructions_per_event"] - 1
    if not 0.15 <= slowed <= 0.25:
        sys.exit(f"error: the seeded slowdown measured {slowed:+.1%} on {SLOWED_CASE}, not about 20% (its fixed cost is too large)")
    if not expected <= set(regressed) or "mpsc.enqueueDequeue" in regressed:
        sys.exit(f"error: the gate did not single out the slowed path (regressed: {regressed or 'none'})")
    print(f"\nself-test: the gate fails on the seeded slowdown ({slowed:+.1%} on {SLOWED_CASE}), and not on a path without map")


if __name__ == "__main__":
    main()
