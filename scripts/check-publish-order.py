#!/usr/bin/env python3
"""The publish-order check of the shipped build: in the optimized code of each publish path
of the core's lock-free queues, every retain of what a slot holds (and of the chunk a handle
keeps) comes before the store that hands the slot to the consumer.

Stress cannot see this: in the StressHooks build the stress point's opaque call pins the
retains, and in a plain build the window is a few instructions. So this check stops the
producer at the publish itself. It builds PublishOrderProbe in release without traits (the
core as users ship it), runs it under gdb (scripts/publish-order.gdb.py): a hardware
watchpoint on the flag stops the producer at the instant its publishing store lands, the
reference counts are read there, and every retain of the payload or the chunk on the
producer's thread until its call returns is counted. A path passes with each count at least
2 at the publish and no retain after it.

The probe's case 0 is the check's seeded instance (a retain written after the publish); the
check fails if that case is not caught. Exits 0 when every path passes, 1 otherwise.

    scripts/check-publish-order.py                        build and check
    scripts/check-publish-order.py --binary PATH          check a built probe
    scripts/check-publish-order.py --mutant ID            build HEAD with a mutant of
                                                          scripts/mutants.txt (in a scratch
                                                          copy) and check that build
"""
import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDED_CASE = 0


def build(tree, scratch):
    command = ["swift", "build", "-c", "release", "--product", "PublishOrderProbe", "--scratch-path", scratch]
    result = subprocess.run(command, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        sys.exit(f"error: building PublishOrderProbe failed ({' '.join(command)})")
    return os.path.join(scratch, "release", "PublishOrderProbe")


def mutated_tree(mutant_id, scratch):
    """A copy of HEAD with the mutant applied (the working tree is never touched)."""
    spec = importlib.util.spec_from_file_location("mutation_check", os.path.join(ROOT, "scripts", "mutation-check.py"))
    mutation_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mutation_check)
    listed = {m["id"]: m for m in mutation_check.mutants(os.path.join(ROOT, "scripts", "mutants.txt"))}
    if mutant_id not in listed:
        sys.exit(f"error: no mutant '{mutant_id}' in scripts/mutants.txt")
    mutant = listed[mutant_id]
    tree = os.path.join(scratch, "tree")
    os.makedirs(tree)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout
    subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
    path = os.path.join(tree, mutant["file"])
    source = open(path, encoding="utf-8").read()
    if source.count(mutant["find"]) != 1:
        sys.exit(f"error: mutant '{mutant_id}': the text to replace occurs {source.count(mutant['find'])} times in {mutant['file']}")
    open(path, "w", encoding="utf-8").write(source.replace(mutant["find"], mutant["replace"]))
    return tree


def run_probe(binary):
    """The probe's cases ({number: name}) and the check's findings ({number: (counts, retains)})."""
    script = os.path.join(ROOT, "scripts", "publish-order.gdb.py")
    result = subprocess.run(
        ["gdb", "-batch", "-nx", "-x", script, binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600
    )
    cases, findings = {}, {}
    for line in result.stdout.splitlines():
        if match := re.match(r"probe-case (\d+) (.*)", line):
            cases[int(match.group(1))] = match.group(2)
        elif match := re.match(r"publish-order (\d+) (.*) retained-after=(\S+)", line):
            counts = dict(pair.split("=") for pair in match.group(2).split())
            findings[int(match.group(1))] = (counts, match.group(3))
    if not cases or "probe-done" not in result.stdout:
        sys.stderr.write(result.stdout[-4000:])
        sys.exit("error: the probe did not run to its end under gdb")
    return cases, findings


def verdict(finding):
    if finding is None:
        return False, "not checked (the breakpoint was never reached)"
    counts, retained = finding
    if retained == "none":
        return False, "the publish was never seen (no write to the flag on the producer's thread)"
    problems = [f"{name} held {count} reference(s) at the publish" for name, count in counts.items() if not count.isdigit() or int(count) < 2]
    if retained != "0":
        problems.append(f"{retained} retain(s) after the publish")
    return not problems, "; ".join(problems) or "every retain before the publish"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="a built PublishOrderProbe")
    parser.add_argument("--mutant", help="an id of scripts/mutants.txt to apply to a copy of HEAD first")
    options = parser.parse_args()
    if shutil.which("gdb") is None:
        sys.exit("error: gdb is not installed (apt-get install gdb)")
    scratch = tempfile.mkdtemp(prefix="publish-order-")
    try:
        if options.binary:
            binary = options.binary
        elif options.mutant:
            binary = build(mutated_tree(options.mutant, scratch), os.path.join(scratch, "build"))
        else:
            binary = build(ROOT, os.path.join(ROOT, ".build-publish-order"))
        cases, findings = run_probe(binary)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    failed = 0
    print("| case | publish path | at the publish | verdict |")
    print("|---:|---|---|---|")
    for number, name in sorted(cases.items()):
        ok, detail = verdict(findings.get(number))
        counts = " ".join(f"{k}={v}" for k, v in findings[number][0].items()) if number in findings else "-"
        if number == SEEDED_CASE:
            # The check's own seeded instance: it must be caught.
            label = "caught (expected: the seeded instance)" if not ok else "NOT CAUGHT: the check is blind"
            failed += ok
        else:
            label = "passes" if ok else "FAILS"
            failed += not ok
        print(f"| {number} | {name} | {counts} | {label}: {detail} |")
    if failed:
        print(f"\npublish-order check: {failed} problem(s)", file=sys.stderr)
        sys.exit(1)
    print(f"\npublish-order check: {len(cases) - 1} publish paths keep their retains before the publish")


if __name__ == "__main__":
    main()
