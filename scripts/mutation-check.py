#!/usr/bin/env python3
"""Mutation check of the stress mode: applies each one-line mutant of scripts/mutants.txt
to a scratch copy of the tree (HEAD, via `git archive`; the working tree is never
touched), builds schedbench-builtins and the schedbench tool in release with the
StressHooks trait, runs the default
`schedbench stress` on it, and reports which mutants it catches (exit 3), which it misses
(exit 0) and which do not build. Prints a Markdown table; exits 0 whatever it finds.

    scripts/mutation-check.py                     every mutant, 60 s of stress each, seed 1
    DURATION=30 SEED=7 scripts/mutation-check.py  shorter, another seed
    scripts/mutation-check.py drain-exit-early    the mutants named
    UNIT=1 scripts/mutation-check.py              also run the core's unit tests per mutant (slow)
    UNIT=1 STRESS=0 scripts/mutation-check.py     the unit tests only

Each mutant takes a build (about 2–3 minutes here, incremental in the scratch copy) and
the stress run.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mutants(path):
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 5:
            sys.exit(f"{path}:{number}: expected 5 tab-separated fields, found {len(fields)}")
        yield dict(zip(["id", "file", "find", "replace", "breaks"], fields))


def run(command, cwd, log, env=None):
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        return subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env).returncode


def main():
    duration = os.environ.get("DURATION", "60")
    seed = os.environ.get("SEED", "1")
    unit = os.environ.get("UNIT") == "1"
    stress = os.environ.get("STRESS", "1") != "0"
    chosen = set(sys.argv[1:])
    listed = list(mutants(os.path.join(ROOT, "scripts", "mutants.txt")))
    unknown = chosen - {m["id"] for m in listed}
    if unknown:
        sys.exit(f"unknown mutant(s): {', '.join(sorted(unknown))}")
    scratch = tempfile.mkdtemp(prefix="mutation-check-")
    log = os.path.join(scratch, "log.txt")
    try:
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout
        tree = os.path.join(scratch, "tree")
        os.makedirs(tree)
        subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
        env = dict(os.environ)
        print(f"| mutant | what it breaks | stress ({duration} s, seed {seed}) |" + (" core unit tests |" if unit else ""))
        print("|---|---|---|" + ("---|" if unit else ""))
        caught = total = unit_failed = unit_total = 0
        for mutant in listed:
            if chosen and mutant["id"] not in chosen:
                continue
            path = os.path.join(tree, mutant["file"])
            original = open(path, encoding="utf-8").read()
            if original.count(mutant["find"]) != 1:
                print(f"| `{mutant['id']}` | {mutant['breaks']} | the text to replace occurs {original.count(mutant['find'])} times: fix the list |")
                continue
            open(path, "w", encoding="utf-8").write(original.replace(mutant["find"], mutant["replace"]))
            try:
                verdict = "not run"
                builds = [
                    ["swift", "build", "-c", "release", "--traits", "StressHooks", "--product", product, "--scratch-path", os.path.join(scratch, "build")]
                    for product in ("schedbench-builtins", "schedbench")
                ]
                if not stress:
                    pass
                elif any(run(build, tree, log, env) != 0 for build in builds):
                    verdict = "does not build"
                else:
                    binary = os.path.join(scratch, "build", "release", "schedbench")
                    out = os.path.join(scratch, "stress-" + mutant["id"])
                    status = run([binary, "stress", "--duration", duration, "--seed", seed, "--out", out, "--quiet"], tree, log, env)
                    total += 1
                    if status == 3:
                        caught += 1
                        kinds = violations(os.path.join(out, "stress.csv"))
                        verdict = f"**caught** ({kinds})"
                    elif status == 0:
                        verdict = "missed"
                    else:
                        verdict = f"error (exit {status})"
                unit_verdict = ""
                if unit:
                    tests = ["swift", "test", "--filter", "RxSchedulersTests", "--scratch-path", os.path.join(scratch, "build-tests")]
                    unit_total += 1
                    if run(tests, tree, log, env) != 0:
                        unit_failed += 1
                        unit_verdict = " fails |"
                    else:
                        unit_verdict = " passes |"
                print(f"| `{mutant['id']}` | {mutant['breaks']} | {verdict} |{unit_verdict}", flush=True)
            finally:
                open(path, "w", encoding="utf-8").write(original)
        print()
        if stress:
            print(f"stress caught {caught} of {total} mutants that built")
        if unit:
            print(f"the core's unit tests failed on {unit_failed} of {unit_total} mutants")
        print(f"log: {log}")
    finally:
        if os.environ.get("KEEP") != "1":
            shutil.rmtree(os.path.join(scratch, "build"), ignore_errors=True)
            shutil.rmtree(os.path.join(scratch, "build-tests"), ignore_errors=True)


def violations(path):
    import csv

    if not os.path.exists(path):
        return "no stress.csv"
    found = {}
    for row in csv.DictReader(open(path, encoding="utf-8")):
        if row["record"] == "violation" and row["count"] != "0":
            found.setdefault(row["scenario"], set()).add(row["name"])
    return "; ".join(f"{scenario}: {', '.join(sorted(kinds))}" for scenario, kinds in sorted(found.items())) or "exit 3"


if __name__ == "__main__":
    main()
