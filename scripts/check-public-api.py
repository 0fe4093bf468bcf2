#!/usr/bin/env python3
"""Checks the engine's public surface: every `public` declaration in the engine's modules
(the harness, not the RxSchedulers core, whose public surface is RxSwift's) must

  1. carry a doc comment (`///`), and
  2. be used outside its own module (in another module under Sources/ or in Examples/),
     or be listed as user API in scripts/public-api.txt (one `Module.Name` a line).

Anything else is a public name nobody needs: make it `package` (the modules of this
package see `package` declarations) or `internal`.

    scripts/check-public-api.py              check the tree (exit 1 on a finding)
    scripts/check-public-api.py --list       list every public declaration and its users
    scripts/check-public-api.py --self-test  show that each rule fails a tree that breaks it

The parser reads declarations the way this project writes them (one declaration per line,
attributes before it); it does not compile anything, so it runs in a second.
"""
import os
import re
import sys
import tempfile

ENGINE_MODULES = ["BenchModel", "BenchChild", "BenchAnalysis", "BenchWorkflows", "SchedBenchCLI", "SchedulerBench", "SchedulerBenchPeers"]
DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*public\s+(?:(?:static|class|final|override|mutating|nonmutating|indirect|convenience|required|nonisolated|lazy)\s+)*"
    r"(struct|enum|class|protocol|actor|typealias|func|var|let|init|subscript|case|extension)\b\s*([A-Za-z_][A-Za-z_0-9]*)?"
)


def swift_files(directory):
    for root, _, files in os.walk(directory):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(root, name)


def public_declarations(root, module):
    """(file, line, kind, name, documented) for each public declaration of `module`."""
    found = []
    for path in swift_files(os.path.join(root, "Sources", module)):
        lines = open(path, encoding="utf-8").read().split("\n")
        for index, line in enumerate(lines):
            match = DECLARATION.match(line)
            if not match:
                continue
            kind, name = match.group(1), match.group(2) or match.group(1)
            if kind == "extension":
                continue  # an extension has no name of its own; its members are checked
            above = index - 1
            while above >= 0 and re.match(r"^\s*@", lines[above]):
                above -= 1
            documented = above >= 0 and lines[above].strip().startswith("///")
            found.append((os.path.relpath(path, root), index + 1, kind, name, documented))
    return found


def users(root, module, name):
    """Files outside `module` (other modules, Examples/) that mention `name` as a word."""
    pattern = re.compile(r"\b" + re.escape(name) + r"\b")
    places = [os.path.join(root, "Sources", other) for other in os.listdir(os.path.join(root, "Sources")) if other != module]
    places.append(os.path.join(root, "Examples"))
    result = []
    for place in places:
        if not os.path.isdir(place):
            continue
        for path in swift_files(place):
            if pattern.search(open(path, encoding="utf-8").read()):
                result.append(os.path.relpath(path, root))
    return result


def allowed(root):
    path = os.path.join(root, "scripts", "public-api.txt")
    if not os.path.exists(path):
        return set()
    return {line.strip() for line in open(path, encoding="utf-8") if line.strip() and not line.startswith("#")}


def findings(root):
    """One message per broken rule."""
    messages = []
    listed = allowed(root)
    for module in ENGINE_MODULES:
        if not os.path.isdir(os.path.join(root, "Sources", module)):
            continue
        for path, line, kind, name, documented in public_declarations(root, module):
            where = f"{path}:{line}: public {kind} {name}"
            if not documented:
                messages.append(f"{where} has no doc comment (///)")
            # An initializer or subscript is used where its type is; a name is checked as a word.
            if kind not in ("init", "subscript") and f"{module}.{name}" not in listed and not users(root, module, name):
                messages.append(
                    f"{where} is used by no other module and is not listed as user API in scripts/public-api.txt; make it package or internal"
                )
    return messages


def self_test():
    """Each rule fails a tree that breaks it, and passes one that keeps it."""

    def tree(files, allow=""):
        root = tempfile.mkdtemp(prefix="public-api-")
        for relative, text in files.items():
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w", encoding="utf-8").write(text)
        os.makedirs(os.path.join(root, "scripts"), exist_ok=True)
        open(os.path.join(root, "scripts", "public-api.txt"), "w").write(allow)
        return root

    documented_used = {
        "Sources/BenchModel/A.swift": "/// A thing.\npublic struct Thing {\n    /// Made.\n    @inlinable public init() {}\n}\n",
        "Sources/SchedBenchCLI/B.swift": "import BenchModel\nlet thing = Thing()\n",
    }
    cases = [
        ("documented and used elsewhere", documented_used, "", 0),
        ("undocumented", {**documented_used, "Sources/BenchModel/A.swift": "public struct Thing {}\n"}, "", 1),
        ("used nowhere else", {"Sources/BenchModel/A.swift": "/// A thing.\npublic struct Thing {}\n"}, "", 1),
        ("listed as user API", {"Sources/BenchModel/A.swift": "/// A thing.\npublic struct Thing {}\n"}, "BenchModel.Thing\n", 0),
        ("used by an example", {"Sources/BenchModel/A.swift": "/// A thing.\npublic struct Thing {}\n", "Examples/E/main.swift": "_ = Thing()\n"}, "", 0),
        ("package is not public", {"Sources/BenchModel/A.swift": "package struct Thing {}\n"}, "", 0),
    ]
    failed = 0
    for title, files, allow, expected in cases:
        got = len(findings(tree(files, allow)))
        if got != expected:
            print(f"self-test '{title}': {got} finding(s), expected {expected}")
            failed += 1
    print(f"self-test: {len(cases) - failed} of {len(cases)} cases as expected")
    return 1 if failed else 0


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--self-test" in sys.argv:
        return self_test()
    if "--list" in sys.argv:
        for module in ENGINE_MODULES:
            for path, line, kind, name, _ in public_declarations(root, module):
                print(f"{module}.{name} ({kind}, {path}:{line}): {', '.join(users(root, module, name)) or 'no other module'}")
        return 0
    messages = findings(root)
    for message in messages:
        print(message)
    count = sum(len(public_declarations(root, module)) for module in ENGINE_MODULES)
    print(f"public API check: {count} public declarations in the engine's modules, {len(messages)} finding(s)")
    return 1 if messages else 0


if __name__ == "__main__":
    sys.exit(main())
