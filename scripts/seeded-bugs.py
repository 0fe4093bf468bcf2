#!/usr/bin/env python3
"""The seeded-bug catalogue (scripts/seeded-bugs.txt): bugs planted in a copy of the core,
never in its sources, to show that `schedbench stress` catches each class of bug its
scenarios claim to.

    scripts/seeded-bugs.py tree DIR        write a copy of the working tree with every bug
                                           planted, each behind RXSCHEDULERS_SEEDED_BUG=id
    scripts/seeded-bugs.py build           that copy in .build-seeded/tree, its measuring
                                           executable (schedbench-builtins) built in release
                                           with the stress hooks (.build-seeded/build); prints
                                           its path
    scripts/seeded-bugs.py check [ID ...]  builds, then has the tool run each bug's scenario
                                           against that executable (SCHEDBENCH_TARGET) with
                                           the bug switched on and requires it caught (exit 3)
                                           with its violation kind; also that a replay line
                                           reproduces its failure, and that a misspelt id is
                                           refused (exit 64). Prints a Markdown table.
    scripts/seeded-bugs.py list            the catalogue: id, scenario, kind, what it breaks
    scripts/seeded-bugs.py --self-test     the planting rules, on a small tree of its own

Options for check: --target PATH (a seeded build made earlier), --tool PATH (the schedbench
tool that drives it; .build/debug/schedbench, built when missing), --seed N (1), --duration S
(the most a bug may take to be caught, 30). Every bug goes into one build, so the whole
catalogue costs one release build of the runtime and the core, and its stress runs. The
tool is not in the seeded copy: it links neither, so any build of it drives the bugs.

How a bug is planted: an edit whose text to replace is whole lines becomes
`if SeededBugs.active == N { replacement } else { original }`; any other edit becomes
`(SeededBugs.active == N ? (replacement) : (original))`. `SeededBugs.active` is a C global
set once, before `main`, from RXSCHEDULERS_SEEDED_BUG; an id the build does not have makes
the process exit 64 naming the valid ones. A build without the catalogue ignores the
variable: its stress runs say so (`schedbench stress` refuses it, exit 64).
"""
import csv
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOGUE = os.path.join(ROOT, "scripts", "seeded-bugs.txt")
SEEDED = os.path.join(ROOT, ".build-seeded")
ENVIRONMENT_VARIABLE = "RXSCHEDULERS_SEEDED_BUG"
PRODUCT = "schedbench-builtins"
TOOL = "schedbench"
TARGET_VARIABLE = "SCHEDBENCH_TARGET"
# The bug whose replay line is checked: deterministic, so its replay fails the same way
# (a racy bug's replay repeats the decisions, not the timing).
REPLAYED = "trampolineRunsDisposed"


class CatalogueError(Exception):
    pass


def unescape(text):
    return text.replace("\\n", "\n").replace("\\t", "\t")


def read_catalogue(path=CATALOGUE):
    """The bugs, in catalogue order: id → {edits: [(file, find, replace)], breaks, scenario, kind}."""
    bugs = {}
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 6:
            raise CatalogueError(f"{path}:{number}: expected 6 tab-separated fields, found {len(fields)}")
        bug_id, file, find, replace, breaks, caught_by = fields
        if ":" not in caught_by:
            raise CatalogueError(f"{path}:{number}: '{caught_by}' is not SCENARIO:KIND")
        scenario, kind = caught_by.split(":", 1)
        bug = bugs.setdefault(bug_id, {"edits": [], "breaks": breaks, "scenario": scenario, "kind": kind})
        if (bug["scenario"], bug["kind"]) != (scenario, kind):
            raise CatalogueError(f"{path}:{number}: {bug_id} is caught by {bug['scenario']}:{bug['kind']} on an earlier line")
        if not bug["breaks"]:
            raise CatalogueError(f"{path}:{number}: the first line of {bug_id} must say what it breaks")
        bug["edits"].append((file, unescape(find), unescape(replace)))
    return bugs


def is_whole_lines(text, start, end):
    """Whether text[start:end] starts after a line's indentation and ends at a line's end."""
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].strip() == "" and (end == len(text) or text[end] == "\n")


def plant(text, edits, path):
    """`text` with each (number, find, replace) edit behind its switch. Edits may not overlap."""
    located = []
    for number, find, replace in edits:
        count = text.count(find)
        if count != 1:
            raise CatalogueError(f"{path}: the text to replace occurs {count} times, not once: {find!r}")
        start = text.index(find)
        located.append((start, start + len(find), number, find, replace))
    located.sort()
    for (_, end, *_), (start, *_) in zip(located, located[1:]):
        if start < end:
            raise CatalogueError(f"{path}: two edits overlap")
    for start, end, number, find, replace in reversed(located):
        switch = f"SeededBugs.active == {number}"
        if is_whole_lines(text, start, end):
            line_start = text.rfind("\n", 0, start) + 1
            indent = text[line_start:start]
            body = "".join(f"{indent}    {line.strip()}\n" for line in replace.split("\n") if line.strip())
            planted = f"if {switch} {{\n{body}{indent}}} else {{\n{indent}{find}\n{indent}}}"
        else:
            planted = f"({switch} ? ({replace}) : ({find}))"
        text = text[:start] + planted + text[end:]
    return text


def switch_sources(ids):
    """The files that hold the switch: a Swift reader in the core, a C global set before main."""
    swift = f"""import CSpinHint

/// Which seeded bug this process runs with (0: none): the index of
/// {ENVIRONMENT_VARIABLE} in the catalogue, read once before `main`
/// (`rx_seeded_bug_select`). Written by scripts/seeded-bugs.py into a copy of the tree;
/// the core's own sources have no such file.
@usableFromInline
enum SeededBugs {{
    @inlinable static var active: Int32 {{ rx_seeded_bug_active }}
}}
"""
    names = ", ".join(f'"{bug_id}"' for bug_id in ids)
    c = f"""// Written by scripts/seeded-bugs.py: the switch of the seeded-bug catalogue.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "CSpinHint.h"

int rx_seeded_bug_active = 0;

static const char *const rx_seeded_bug_names[] = {{{names}}};

__attribute__((constructor)) static void rx_seeded_bug_select(void) {{
    setenv("RXSCHEDULERS_SEEDED_BUILD", "1", 1);
    const char *name = getenv("{ENVIRONMENT_VARIABLE}");
    if (name == NULL || *name == 0) return;
    size_t count = sizeof(rx_seeded_bug_names) / sizeof(rx_seeded_bug_names[0]);
    for (size_t index = 0; index < count; index++) {{
        if (strcmp(name, rx_seeded_bug_names[index]) == 0) {{
            rx_seeded_bug_active = (int)index + 1;
            return;
        }}
    }}
    fprintf(stderr, "error: {ENVIRONMENT_VARIABLE}='%s' names no seeded bug of this build; valid: ", name);
    for (size_t index = 0; index < count; index++) fprintf(stderr, "%s%s", index ? ", " : "", rx_seeded_bug_names[index]);
    fprintf(stderr, "\\n");
    _exit(64);
}}
"""
    declaration = "\n/// The seeded bug switched on (scripts/seeded-bugs.py); 0: none.\nextern int rx_seeded_bug_active;\n"
    return swift, c, declaration


def tracked_files(root):
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root, stdout=subprocess.PIPE, check=True
    ).stdout.decode().split("\0")
    return sorted(path for path in listed if path and os.path.isfile(os.path.join(root, path)))


def write_if_changed(path, data):
    """Writes only what changed, so a reused build directory rebuilds only that."""
    if os.path.exists(path):
        with open(path, "rb") as existing:
            if existing.read() == data:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as out:
        out.write(data)


def write_tree(destination, root=ROOT, catalogue=CATALOGUE):
    bugs = read_catalogue(catalogue)
    ids = list(bugs)
    by_file = {}
    for number, bug_id in enumerate(ids, 1):
        for file, find, replace in bugs[bug_id]["edits"]:
            by_file.setdefault(file, []).append((number, find, replace))
    files = tracked_files(root)
    missing = sorted(set(by_file) - set(files))
    if missing:
        raise CatalogueError(f"the catalogue edits files the tree does not have: {', '.join(missing)}")
    swift, c, declaration = switch_sources(ids)
    header = "Sources/CSpinHint/include/CSpinHint.h"
    contents = {}
    for path in files:
        data = open(os.path.join(root, path), "rb").read()
        if path in by_file:
            data = plant(data.decode("utf-8"), by_file[path], path).encode("utf-8")
        if path == header:
            text = data.decode("utf-8")
            guard_end = text.rindex("#endif")
            data = (text[:guard_end] + declaration + "\n" + text[guard_end:]).encode("utf-8")
        contents[path] = data
    contents["Sources/RxSchedulers/Internal/SeededBugs.swift"] = swift.encode("utf-8")
    contents["Sources/CSpinHint/SeededBugs.c"] = c.encode("utf-8")
    for path, data in contents.items():
        write_if_changed(os.path.join(destination, path), data)
    # Files gone from the working tree go from the copy too (its build directory is elsewhere).
    for directory, subdirectories, names in os.walk(destination, topdown=True):
        subdirectories[:] = [d for d in subdirectories if not d.startswith(".build")]
        for name in names:
            relative = os.path.relpath(os.path.join(directory, name), destination)
            if relative not in contents and not relative.startswith(".swiftpm") and relative != "Package.resolved":
                os.remove(os.path.join(directory, name))
    return bugs


def build():
    tree = os.path.join(SEEDED, "tree")
    write_tree(tree)
    command = [
        "swift", "build", "-c", "release", "--traits", "StressHooks", "--product", PRODUCT,
        "--package-path", tree, "--scratch-path", os.path.join(SEEDED, "build"),
    ]
    print(f"seeded-bugs: building the seeded copy ({' '.join(command[2:8])}); a first build takes several minutes", file=sys.stderr)
    subprocess.run(command, check=True, stdout=sys.stderr)
    return os.path.join(SEEDED, "build", "release", PRODUCT)


def tool():
    """The debug build's tool, built (with the package's default traits) when it is missing."""
    path = os.path.join(ROOT, ".build", "debug", TOOL)
    if not os.access(path, os.X_OK):
        print(f"seeded-bugs: building the tool (swift build --product {TOOL})", file=sys.stderr)
        subprocess.run(["swift", "build", "--product", TOOL, "--package-path", ROOT], check=True, stdout=sys.stderr)
    return path


class Stress:
    """`schedbench stress` run by `tool` against the seeded measuring executable `target`."""

    def __init__(self, tool, target):
        self.tool = tool
        self.target = target

    def __call__(self, bug_id, arguments, out):
        environment = dict(os.environ)
        environment[TARGET_VARIABLE] = self.target
        environment.pop("SCHEDBENCH_COMMAND", None)
        if bug_id is not None:
            environment[ENVIRONMENT_VARIABLE] = bug_id
        else:
            environment.pop(ENVIRONMENT_VARIABLE, None)
        return subprocess.run(
            [self.tool, "stress", *arguments, "--out", out, "--quiet"], env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )


def violations(out):
    path = os.path.join(out, "stress.csv")
    if not os.path.exists(path):
        return {}
    found = {}
    for row in csv.DictReader(open(path, encoding="utf-8")):
        if row["record"] == "violation" and row["count"] not in ("", "0"):
            found[row["name"]] = found.get(row["name"], 0) + int(row["count"])
    return found


def check(stress, chosen, seed, duration):
    bugs = read_catalogue()
    unknown = sorted(set(chosen) - set(bugs))
    if unknown:
        raise CatalogueError(f"not in the catalogue: {', '.join(unknown)}; valid: {', '.join(bugs)}")
    scratch = tempfile.mkdtemp(prefix="seeded-bugs-")
    failures = []
    try:
        print(f"| seeded bug | scenario | must report | verdict (seed {seed}, at most {duration} s) |")
        print("|---|---|---|---|")
        replayed = None
        for bug_id, bug in bugs.items():
            if chosen and bug_id not in chosen:
                continue
            out = os.path.join(scratch, bug_id)
            run = stress(bug_id, ["--scenario", bug["scenario"], "--seed", str(seed), "--duration", str(duration)], out)
            found = violations(out)
            caught = run.returncode == 3 and any(found.get(kind, 0) > 0 for kind in bug["kind"].split("|"))
            if caught and bug["kind"] == "hang" and "last at " not in run.stderr:
                # A hang's report names each stuck thread's last stress point.
                failures.append(f"{bug_id}: the hang report names no thread's last point\n{run.stderr[-2000:]}")
            if caught:
                verdict = "caught"
                if bug_id == REPLAYED:
                    replayed = (bug_id, run.stderr)
            else:
                reported = ", ".join(f"{name} {count}" for name, count in sorted(found.items())) or "nothing"
                verdict = f"**missed** (exit {run.returncode}; reported {reported})"
                failures.append(f"{bug_id}: exit {run.returncode}, reported {reported}\n{run.stderr[-2000:]}")
            print(f"| `{bug_id}` | {bug['scenario']} | {bug['kind']} | {verdict} |", flush=True)
        if replayed is not None:
            failures += check_replay(stress, *replayed, scratch)
        misspelt = stress("noSuchBug", ["--scenario", "mpsc.spec", "--iterations", "1"], os.path.join(scratch, "misspelt"))
        if misspelt.returncode != 64 or "names no seeded bug of this build; valid: " not in misspelt.stderr:
            failures.append(f"a misspelt id was not refused with 64: exit {misspelt.returncode}\n{misspelt.stderr[-2000:]}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    return not failures


def check_replay(stress, bug_id, stderr, scratch):
    """The replay line a caught bug printed names the seeded build and the bug, reproduces
    the failure, and passes without the bug."""
    lines = [line for line in stderr.splitlines() if "replay: " in line]
    if not lines:
        return [f"{bug_id}: the failure printed no replay line\n{stderr[-2000:]}"]
    words = shlex.split(lines[0].split("replay: ", 1)[1])
    assignments = [word for word in words[: next(i for i, word in enumerate(words) if "=" not in word)]]
    if assignments != [f"{ENVIRONMENT_VARIABLE}={bug_id}", f"{TARGET_VARIABLE}={stress.target}"]:
        return [f"{bug_id}: the replay line does not switch the bug on in the seeded build: {lines[0]}"]
    arguments = words[len(assignments) + 1 :][1:]  # after the tool and `stress`
    again = stress(bug_id, arguments, os.path.join(scratch, "replay"))
    if again.returncode != 3 or lines[0] not in again.stderr:
        return [f"{bug_id}: its replay line did not fail the same way (exit {again.returncode})\n{again.stderr[-2000:]}"]
    clean = stress(None, arguments, os.path.join(scratch, "replay-clean"))
    if clean.returncode != 0:
        return [f"{bug_id}: its replay without the bug failed (exit {clean.returncode})\n{clean.stderr[-2000:]}"]
    return []


def self_test():
    """The planting rules: statements and expressions, and the errors a bad entry gets."""
    statement = "func f() {\n    if x { y() }\n    z()\n}\n"
    planted = plant(statement, [(3, "if x { y() }", "w()")], "f.swift")
    assert planted == "func f() {\n    if SeededBugs.active == 3 {\n        w()\n    } else {\n    if x { y() }\n    }\n    z()\n}\n", planted
    expression = "let a = b == 0 && c\n"
    assert plant(expression, [(1, "b == 0", "true")], "g.swift") == "let a = (SeededBugs.active == 1 ? (true) : (b == 0)) && c\n"
    two = plant("x == 1 || y == 2\n", [(1, "x == 1", "false"), (2, "y == 2", "true")], "h.swift")
    assert two == "(SeededBugs.active == 1 ? (false) : (x == 1)) || (SeededBugs.active == 2 ? (true) : (y == 2))\n", two
    for edits, words in [
        ([(1, "q", "r")], "occurs 0 times"),
        ([(1, "a", "r")], "occurs 2 times"),
        ([(1, "a == a", "x"), (2, "= a", "y")], "overlap"),
    ]:
        try:
            plant("a == a\n", edits, "i.swift")
        except CatalogueError as error:
            assert words in str(error), (words, str(error))
        else:
            raise AssertionError(f"no error for {edits}")
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "catalogue.txt")
        for text, words in [
            ("a\tb\tc\td\te\n", "expected 6"),
            ("a\tb\tc\td\te\tscenario\n", "not SCENARIO:KIND"),
            ("a\tb\tc\td\t\ts:k\n", "must say what it breaks"),
            ("a\tb\tc\td\te\ts:k\na\tb\tc\td\t\tt:k\n", "caught by s:k"),
        ]:
            open(path, "w").write(text)
            try:
                read_catalogue(path)
            except CatalogueError as error:
                assert words in str(error), (words, str(error))
            else:
                raise AssertionError(f"no error for {text!r}")
    # The real catalogue plants into the real tree.
    with tempfile.TemporaryDirectory() as scratch:
        bugs = write_tree(scratch)
        switch = open(os.path.join(scratch, "Sources/CSpinHint/SeededBugs.c")).read()
        assert all(f'"{bug_id}"' in switch for bug_id in bugs)
        assert "extern int rx_seeded_bug_active;" in open(os.path.join(scratch, "Sources/CSpinHint/include/CSpinHint.h")).read()
    print(f"seeded-bugs.py self-test passed ({len(bugs)} bugs plant into the tree)")


def main(arguments):
    options = {"--target": None, "--tool": None, "--seed": "1", "--duration": "30"}
    positional = []
    index = 0
    while index < len(arguments):
        if arguments[index] in options:
            if index + 1 >= len(arguments):
                raise CatalogueError(f"{arguments[index]} needs a value")
            options[arguments[index]] = arguments[index + 1]
            index += 2
        else:
            positional.append(arguments[index])
            index += 1
    if positional == ["--self-test"]:
        self_test()
        return 0
    if not positional or positional[0] not in ("tree", "build", "check", "list"):
        print(__doc__, file=sys.stderr)
        return 64
    command, rest = positional[0], positional[1:]
    if command == "tree":
        if len(rest) != 1:
            raise CatalogueError("tree takes one directory")
        write_tree(os.path.abspath(rest[0]))
        return 0
    if command == "list":
        for bug_id, bug in read_catalogue().items():
            print(f"{bug_id}\t{bug['scenario']}\t{bug['kind']}\t{bug['breaks']}")
        return 0
    if command == "build":
        print(build())
        return 0
    for option in ("--seed", "--duration"):
        if not options[option].isdigit() or int(options[option]) < 1:
            raise CatalogueError(f"{option} '{options[option]}' is not a whole number ≥ 1")
    target = options["--target"] or build()
    stress = Stress(options["--tool"] or tool(), target)
    return 0 if check(stress, rest, int(options["--seed"]), int(options["--duration"])) else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except CatalogueError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(64)
