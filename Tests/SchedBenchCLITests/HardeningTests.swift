import Foundation
import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// What a hostile or unlucky user does: stale output directories, hanging and silent
/// builds, impossible numbers, empty and misspelt input. Each test names the defect it
/// guards against.
final class HardeningTests: SchedBenchTestCase {
    private let tinyRun = ["--suite", "quick", "--workload", "trampoline.nested", "--events", "500", "--warmup", "0"]

    /// Defect: a gate reusing --out passed on the previous gate's files when the candidate
    /// wrote nothing. Now each round's results come from its own child's reply.
    func testAGateNeverPassesOnAnEarlierGatesResults() throws {
        let out = try temporaryDirectory()
        let good = try schedbench(
            [
                "gate", "--baseline", executable.path, "--candidate", executable.path, "--rounds", "2",
                "--metric", "allocs_per_event", "--out", out.path, "--",
            ] + tinyRun)
        XCTAssertEqual(good.status, 0, good.stderr)
        let silent = try script("exit 0")
        let stale = try schedbench(
            [
                "gate", "--baseline", executable.path, "--candidate", silent.path, "--rounds", "2",
                "--metric", "allocs_per_event", "--out", out.path, "--",
            ] + tinyRun)
        XCTAssertEqual(stale.status, 1, stale.stderr)
        XCTAssertTrue(stale.stderr.contains("without a reply"), stale.stderr)
    }

    /// Defect: a candidate that sleeps for ever, or leaves a background process holding its
    /// pipes, hung the gate. Now it is killed with its process group after --child-timeout.
    func testAHangingCandidateIsKilledWithItsProcessGroup() throws {
        let marker = Int.random(in: 10_000...99_999)
        for body in ["sleep \(marker)", "sleep \(marker) &\nexit 0"] {
            let hanging = try script(body)
            let started = Date()
            let run = try schedbench(
                [
                    "gate", "--baseline", executable.path, "--candidate", hanging.path, "--rounds", "2", "--child-timeout", "2",
                    "--out", try temporaryDirectory().path, "--",
                ] + tinyRun)
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("timed out after 2 s"), run.stderr)
            XCTAssertLessThan(Date().timeIntervalSince(started), 60, body)
            XCTAssertFalse(try Self.processRunning(commandLine: "sleep\0\(marker)"), "the candidate's process group was killed: \(body)")
        }
    }

    /// Defect (reported of in-process runs): a registered workload that hangs had no time
    /// limit. Every case runs in a child now, and one that goes silent for --child-timeout
    /// is killed and its case fails, saying so; the run goes on to the next case.
    func testARunKillsATrialThatHangsAfterTheChildTimeout() throws {
        let started = Date()
        let out = try temporaryDirectory()
        let run = try schedbench(
            ["run", "--child-timeout", "2", "--out", out.path, "--no-table", "--trials", "1"] + tinyRun,
            environment: [FaultInjection.environmentKey: FaultInjection.hangTrial.rawValue])
        XCTAssertNotEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("2 s without a word"), run.stderr)
        XCTAssertTrue(run.stderr.contains("trampoline.nested"), run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }

    private static func processRunning(commandLine: String) throws -> Bool {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { Int($0) != nil }.contains { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).hasPrefix(commandLine)
        }
    }

    /// Defect: a name registered twice trapped without its message in a release build
    /// (a precondition's message is compiled out). Now the executable says which name, and
    /// exits 1, before it does anything else.
    func testARegistrationErrorEndsTheExecutableWithItsMessage() throws {
        let builtIns = executable.deletingLastPathComponent().appendingPathComponent("schedbench-builtins")
        let twice = try schedbench(["list"], environment: ["SCHEDBENCH_INJECT_FAULT": "registerTwice"], executable: builtIns)
        XCTAssertEqual(twice.status, 1, twice.stderr)
        XCTAssertTrue(twice.stderr.hasPrefix("error: cannot register ") && twice.stderr.contains("': it is registered already"), twice.stderr)
        XCTAssertTrue(twice.stdout.isEmpty, twice.stdout)
    }

    /// Defect: `run --out` over another run's results replaced them silently.
    func testRunRefusesADirectoryThatHoldsResultsUnlessOverwrite() throws {
        let out = try temporaryDirectory()
        let arguments = ["run"] + tinyRun + ["--trials", "1", "--no-allocations", "--out", out.path, "--quiet", "--no-table"]
        XCTAssertEqual(try schedbench(arguments).status, 0)
        let before = try Data(contentsOf: out.appendingPathComponent("results.csv"))
        let again = try schedbench(arguments)
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("results.csv holds another run's results") && again.stderr.contains("--overwrite"), again.stderr)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("results.csv")), before, "nothing replaced")
        XCTAssertEqual(try schedbench(arguments + ["--overwrite"]).status, 0)
    }

    /// Defects: unbounded axes (OOM, an abort, a case that runs for hours), thread
    /// exhaustion reported as a correctness failure, negative numbers read as "Missing value".
    func testNumbersOutsideTheirLimitsAreUsageErrorsNamingTheLimit() throws {
        for (arguments, expected) in [
            (["--payload", "1000000000000"], "--payload 1000000000000 is outside 0...65536"),
            (["--payload", "9223372036854775807"], "is outside 0...65536"),
            (["--payload", "99999999999999999999"], "is not a whole number"),
            (["--events", "1000000000000"], "--events 1000000000000 is outside 1...10000000"),
            (["--producers", "100000"], "--producers 100000 is outside 1...256"),
            (["--producers", "-1"], "--producers -1 is outside"),
            (["--events", "-5"], "--events -5 is outside"),
            (["--trials", "-1"], "--trials -1 is outside"),
            (["--rate", "0"], "--rate 0 is outside"),
            (["--payload", "65536", "--events", "100000", "--workload", "observeOn.throughput"], "GiB per trial"),
            (["--events", "100000", "--rate", "1", "--workload", "periodic.catchUp"], "take 100000 s per trial, over the limit of 3600 s"),
        ] {
            let run = try schedbench(["run", "--suite", "quick", "--dry-run"] + arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(expected), "\(arguments): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("Missing value"), "\(arguments): \(run.stderr)")
        }
    }

    /// Defect: empty values and a misspelt fault request were silently ignored.
    func testEmptyValuesAndAMisspeltFaultAreErrors() throws {
        for (arguments, expected) in [
            (["--workload", ""], "names nothing"), (["--out", ""], "names no directory"),
            (["--scheduler", ","], "names nothing"),
        ] {
            let run = try schedbench(["run", "--suite", "quick"] + arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(expected), "\(arguments): \(run.stderr)")
        }
        let noMetric = try schedbench(["compare", "a", "b", "--metric", " , "])
        XCTAssertEqual(noMetric.status, 64, "an empty --metric is not the default list: \(noMetric.stderr)")
        XCTAssertTrue(noMetric.stderr.contains("names no metric"), noMetric.stderr)
        let misspelt = try schedbench(["run", "--suite", "quick", "--dry-run"], environment: [FaultInjection.environmentKey: "duplicat"])
        XCTAssertEqual(misspelt.status, 64, misspelt.stderr)
        XCTAssertTrue(misspelt.stderr.contains("'duplicat' is not a fault") && misspelt.stderr.contains("duplicate"), misspelt.stderr)
    }

    /// Defect: `--candidate /tmp` said the file did not exist; `--trials=3` after -- slipped past.
    func testGateNamesWhatIsWrongWithItsInput() throws {
        let directory = try gateUsage(["--candidate", NSTemporaryDirectory()])
        XCTAssertTrue(directory.contains("is a directory"), directory)
        let missing = try gateUsage(["--candidate", "/nonexistent/schedbench"])
        XCTAssertTrue(missing.contains("does not exist"), missing)
        let reserved = try gateUsage(["--candidate", executable.path, "--", "--trials=3"])
        XCTAssertTrue(reserved.contains("--trials is set by gate") && reserved.contains("--trials-per-round"), reserved)
        let none = try gateUsage(["--candidate", executable.path, "--trials-per-round", "0", "--", "--suite", "quick"])
        XCTAssertTrue(none.contains("--trials-per-round 0 is outside 1...1000"), none)
        let recounts = try gateUsage(["--candidate", executable.path, "--rounds", "990", "--confirmation-rounds", "11", "--", "--suite", "quick"])
        XCTAssertTrue(recounts.contains("--confirmation-rounds 11 is outside 0...10 (with --rounds 990)"), recounts)
        let one = try gateUsage(["--candidate", executable.path, "--confirmation-rounds", "1", "--", "--suite", "quick"])
        XCTAssertTrue(one.contains("--confirmation-rounds 1 cannot decide a row"), one)
    }

    private func gateUsage(_ arguments: [String]) throws -> String {
        let run = try schedbench(["gate", "--baseline", executable.path] + arguments)
        XCTAssertEqual(run.status, 64, run.stderr)
        return run.stderr
    }

    /// Defect: NEW with `nan` timings passed compare as unchanged. Now: exit 1 naming the row.
    func testCompareRefusesImpossibleValues() throws {
        let base = try temporaryDirectory()
        XCTAssertEqual(try schedbench(["run"] + tinyRun + ["--trials", "2", "--no-allocations", "--out", base.path, "--quiet"]).status, 0)
        let text = try String(contentsOf: base.appendingPathComponent("results.csv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let row = try XCTUnwrap(lines.firstIndex { $0.contains(",ns_per_event,") })
        var fields = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[fields.count - 2] = "nan"
        lines[row] = fields.joined(separator: ",")
        let corrupt = try temporaryDirectory()
        try FileManager.default.createDirectory(at: corrupt, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(to: corrupt.appendingPathComponent("results.csv"), atomically: true, encoding: .utf8)
        let run = try schedbench(["compare", base.path, corrupt.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("row \(row + 1)") && run.stderr.contains("'nan' is not a decimal number"), run.stderr)
    }

    /// Defect: SIGTERM while an `--isolate` child ran left the child running under PID 1.
    /// Now every child asks the kernel to kill it when its parent dies.
    func testAChildDiesWithItsParent() throws {
        let parent = Process()
        parent.executableURL = executable
        parent.arguments = [
            "run", "--suite", "quick", "--workload", "periodic.catchUp", "--scheduler", "serial", "--strategy", "catchUp",
            "--events", "100000", "--rate", "1000", "--trials", "1", "--warmup", "0", "--no-allocations",
            "--isolate", "--out", try temporaryDirectory().path, "--quiet",
        ]
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        try parent.run()
        defer { if parent.isRunning { parent.terminate() } }
        var child: Int32?
        let deadline = Date().addingTimeInterval(30)
        while child == nil && Date() < deadline {
            child = Self.children(of: parent.processIdentifier).first
            if child == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let pid = try XCTUnwrap(child, "the isolated case's child never started")
        // Into its 100-second trial: past the point where it reports progress, so a pipe
        // closed by the parent's death cannot end it by SIGPIPE, only the parent-death signal.
        Thread.sleep(forTimeInterval: 2)
        kill(parent.processIdentifier, SIGTERM)
        // Not `waitUntilExit()`: Foundation waits there for every holder of a descriptor it
        // gave the parent, which an orphaned child would be.
        let gone = Date().addingTimeInterval(10)
        while Self.isAlive(parent.processIdentifier) && Date() < gone { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(Self.isAlive(parent.processIdentifier), "SIGTERM ends schedbench")
        while Self.isAlive(pid) && Date() < gone { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(Self.isAlive(pid), "the child outlived its parent")
    }

    /// Defect: the first Ctrl-C waited for the case in progress to finish all its trials (a
    /// thousand, or hour-long paced ones). Now the case stops at its next trial and is not
    /// written, in this process or in an `--isolate` child (which is killed), and the run
    /// exits 130 at once.
    func testCtrlCStopsTheCaseInProgressAtItsNextTrial() throws {
        for isolate in [false, true] {
            let out = try temporaryDirectory()
            let parent = Process()
            parent.executableURL = executable
            parent.arguments =
                [
                    "run", "--suite", "quick", "--workload", "trampoline.nested", "--events", "20000", "--trials", "1000",
                    "--warmup", "0", "--no-allocations", "--out", out.path,
                ] + (isolate ? ["--isolate"] : [])
            let errors = Pipe()
            parent.standardOutput = FileHandle.nullDevice
            parent.standardError = errors
            try parent.run()
            defer { if parent.isRunning { parent.terminate() } }
            // Interrupted once the child running the case has used half a processor-second
            // of its trials (about six in all, in either mode).
            let deadline = Date().addingTimeInterval(60)
            var child: Int32?
            while child == nil && parent.isRunning && Date() < deadline {
                child = Self.children(of: parent.processIdentifier).first { (Self.processorSeconds(of: $0) ?? 0) >= 0.5 }
                if child == nil { Thread.sleep(forTimeInterval: 0.05) }
            }
            XCTAssertNotNil(child, "no child ran the case for half a processor-second")
            XCTAssertTrue(parent.isRunning, "a thousand trials take longer than half a processor-second")
            let interrupted = Date()
            kill(parent.processIdentifier, SIGINT)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            parent.waitUntilExit()
            XCTAssertLessThan(Date().timeIntervalSince(interrupted), 5, "isolate \(isolate): the case stopped at its next trial")
            XCTAssertEqual(parent.terminationStatus, 130, stderr)
            XCTAssertTrue(stderr.contains("interrupt: stopping the current case at its next trial"), stderr)
            XCTAssertTrue(stderr.contains("interrupted: kept the 0 finished cases; stopped trampoline.nested"), stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("results.csv").path), "the stopped case is not written")
            if isolate, let child { XCTAssertFalse(Self.isAlive(child), "the child running the case was killed") }
        }
    }

    /// Defect: SIGTERM left a run's scratch (callgrind dumps, the stripped binary) behind.
    func testSIGTERMRemovesTheScratchSpaceAndEndsTheChildren() throws {
        guard ExecutableSearch.onPath("valgrind") != nil else { throw XCTSkip("valgrind is not installed") }
        let parent = Process()
        parent.executableURL = executable
        parent.arguments = [
            "run", "--suite", "quick", "--workload", "periodic.catchUp", "--scheduler", "serial", "--strategy", "catchUp",
            "--events", "3000", "--rate", "1000", "--trials", "1", "--warmup", "0", "--no-allocations", "--instructions",
            "--out", try temporaryDirectory().path, "--quiet",
        ]
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        let launched = Date().addingTimeInterval(-1)
        try parent.run()
        defer { if parent.isRunning { parent.terminate() } }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-\(parent.processIdentifier)")
        // A directory of that name left by an earlier process with the same pid does not count:
        // only one made (or written to) since the launch.
        func made() -> Bool {
            guard let modified = try? FileManager.default.attributesOfItem(atPath: scratch.path)[.modificationDate] as? Date else { return false }
            return modified >= launched
        }
        let deadline = Date().addingTimeInterval(60)
        while !made() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(made(), "the instruction count never made its scratch space")
        let children = Self.descendants(of: parent.processIdentifier)
        kill(parent.processIdentifier, SIGTERM)
        let gone = Date().addingTimeInterval(10)
        while Self.isAlive(parent.processIdentifier) && Date() < gone { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(Self.isAlive(parent.processIdentifier), "SIGTERM ends schedbench")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path), "the scratch space is removed")
        // The children die with their parent (SIGKILL on its death); on a loaded machine
        // that can take a while to be seen, so wait for it with a deadline.
        let reaped = Date().addingTimeInterval(30)
        while !children.filter(Self.isAlive).isEmpty && Date() < reaped { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(children.filter(Self.isAlive), [], "no child outlives it")
        parent.waitUntilExit()
        XCTAssertEqual(parent.terminationStatus, 143, "the documented status for SIGTERM")
    }

    /// A run that finishes, counting instructions and allocations in children, leaves
    /// nothing in the temporary directory: each child removes its scratch root, and the
    /// tool its own, which held theirs.
    func testAFinishedRunLeavesNoScratchSpaceBehind() throws {
        guard ExecutableSearch.onPath("valgrind") != nil else { throw XCTSkip("valgrind is not installed") }
        let temporary = try temporaryDirectory()
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let run = try schedbench(
            [
                "run", "--suite", "quick", "--workload", "trampoline.nested", "--events", "2000", "--trials", "1", "--warmup", "0",
                "--instructions", "--out", try temporaryDirectory().path, "--quiet", "--no-table",
            ], environment: ["TMPDIR": temporary.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [])
    }

    /// Every live process below `pid`.
    private static func descendants(of pid: Int32) -> [Int32] {
        var found: [Int32] = []
        var frontier = [pid]
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
        while let next = frontier.popLast() {
            for candidate in all where parentOf(candidate) == next {
                found.append(candidate)
                frontier.append(candidate)
            }
        }
        return found
    }

    private static func parentOf(_ pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// Defects: `run --history` with a destination it cannot write to failed only after the
    /// whole run; a URL of an unknown scheme was taken for a file name.
    func testRunChecksItsHistoryBeforeMeasuring() throws {
        let out = try temporaryDirectory()
        let started = Date()
        let unwritable = try schedbench(
            ["run"] + tinyRun + ["--trials", "50", "--out", out.path, "--history", "/proc/schedbench/history.sqlite", "--quiet"])
        XCTAssertEqual(unwritable.status, 1, unwritable.stderr)
        XCTAssertTrue(unwritable.stderr.contains("/proc/schedbench/history.sqlite"), unwritable.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("results.csv").path), "nothing was measured")
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        let scheme = try schedbench(["run"] + tinyRun + ["--history", "mysql://x/y", "--quiet"])
        XCTAssertEqual(scheme.status, 64, scheme.stderr)
        XCTAssertTrue(scheme.stderr.contains("URL scheme 'mysql'"), scheme.stderr)
    }

    /// Defects: `gate` with nothing after `--` ran the default suite (hours of rounds); a
    /// selection with no case printed the top-level usage; `1,,2` was accepted; an empty
    /// report title made an empty heading; there was no `--version`.
    func testSmallUsageDefectsOfTheSecondPass() throws {
        let gate = try schedbench(["gate", "--baseline", executable.path, "--candidate", executable.path])
        XCTAssertEqual(gate.status, 64, gate.stderr)
        XCTAssertTrue(gate.stderr.contains("name the cases to gate after --"), gate.stderr)

        let none = try schedbench(["run", "--suite", "quick", "--workload", "trampoline.nested", "--scheduler", "main"])
        XCTAssertEqual(none.status, 64, none.stderr)
        XCTAssertTrue(none.stderr.contains("no cases to run"), none.stderr)
        XCTAssertTrue(none.stderr.contains("Usage: schedbench run "), "the subcommand's usage:\n\(none.stderr)")

        for list in ["1,,2", "1,", ",2"] {
            let producers = try schedbench(["run", "--suite", "quick", "--producers", list, "--dry-run"])
            XCTAssertEqual(producers.status, 64, list)
            XCTAssertTrue(producers.stderr.contains("--producers '\(list)' has an empty item"), producers.stderr)
        }

        let title = try schedbench(["report", try temporaryDirectory().path, "--title", " "])
        XCTAssertEqual(title.status, 64, title.stderr)
        XCTAssertTrue(title.stderr.contains("--title ' ' is empty"), title.stderr)

        let version = try schedbench(["--version"])
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertTrue(version.stdout.hasPrefix("schedbench (unreleased development build; child protocol "), version.stdout)
    }

    /// Defect: with standard output and error on one pipe (`2>&1 | tee`), a summary table
    /// longer than stdio's 4 KiB buffer was cut mid-line by the messages on standard error.
    /// Standard output is now line-buffered: the table comes whole, before the messages.
    func testTheTableIsNotCutByMessagesWhenBothStreamsShareAPipe() throws {
        let out = try temporaryDirectory()
        let shell = try schedbench(
            [
                "-c",
                "'\(executable.path)' run --suite quick --workload observeOn.throughput --events 1000 --trials 1 --warmup 0 --no-allocations --out '\(out.path)' 2>&1",
            ], executable: URL(fileURLWithPath: "/bin/sh"))
        XCTAssertEqual(shell.status, 0, shell.stdout)
        let lines = shell.stdout.split(separator: "\n").map(String.init)
        let table = lines.filter { $0.hasPrefix("observeOn.throughput") }
        XCTAssertGreaterThan(table.joined(separator: "\n").utf8.count, 4_096, "the table is longer than one stdio buffer")
        let results = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("results: ") }, shell.stdout)
        XCTAssertTrue(lines[..<results].filter { $0.hasPrefix("observeOn.throughput") }.count == table.count, "the whole table comes first")
        XCTAssertFalse(lines.contains { $0.contains("results: ") && !$0.hasPrefix("results: ") }, "no message lands mid-line")
    }

    /// Defect: SIGTERM ended `run` without a word. Now it says where the finished cases are.
    func testRunSaysWhereTheFinishedCasesAreOnSIGTERM() throws {
        let out = try temporaryDirectory()
        let run = try launch([
            "run", "--suite", "quick", "--workload", "trampoline.nested", "--events", "20000", "--trials", "1000", "--warmup", "0",
            "--no-allocations", "--out", out.path,
        ])
        XCTAssertTrue(run.waitFor(seconds: 60) { _, _ in FileManager.default.fileExists(atPath: out.path) }, run.stderr)
        run.signal(SIGTERM)
        XCTAssertEqual(run.exitStatus(within: 30), 143, run.stderr)
        XCTAssertTrue(run.stderr.contains("terminated: the cases finished so far are in \(out.path)"), run.stderr)
    }

    /// Defect: SIGTERM ended `gate` with 143 and without a word.
    func testGateSaysWhereTheFinishedRoundsAreOnSIGTERM() throws {
        let out = try temporaryDirectory()
        let gate = try launch(
            [
                "gate", "--baseline", executable.path, "--candidate", executable.path, "--rounds", "50", "--out", out.path, "--",
            ] + tinyRun)
        XCTAssertTrue(gate.waitFor(seconds: 60) { _, _ in FileManager.default.fileExists(atPath: out.path) }, gate.stderr)
        gate.signal(SIGTERM)
        XCTAssertEqual(gate.exitStatus(within: 30), 143, gate.stderr)
        XCTAssertTrue(gate.stderr.contains("terminated: the rounds finished so far are in \(out.path)"), gate.stderr)
    }

    /// Defect: gate kept a child's whole stderr in memory (200 MB of it → 817 MB resident).
    /// The gate's own peak resident size (`VmHWM`) is read while it runs: the largest child
    /// the test process ever reaped (`RUSAGE_CHILDREN`) also held whatever an earlier
    /// test's child peaked at, 398 MB in one CI run.
    func testAChildsStandardErrorIsKeptBounded() throws {
        let noisy = try script("head -c 200000000 /dev/zero | tr '\\0' x >&2\necho 'last words' >&2\nexit 0")
        let gate = try launch(
            [
                "gate", "--baseline", executable.path, "--candidate", noisy.path, "--rounds", "2",
                "--out", try temporaryDirectory().path, "--",
            ] + tinyRun)
        var peakKiB = 0
        let deadline = Date().addingTimeInterval(300)
        while gate.process.isRunning && Date() < deadline {
            if let status = try? String(contentsOfFile: "/proc/\(gate.process.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kiB = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) })
            {
                peakKiB = max(peakKiB, kiB)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(gate.exitStatus(within: 60), 1, gate.stderr)
        XCTAssertTrue(gate.stderr.contains("last words"), "the tail is kept: \(gate.stderr.suffix(300))")
        XCTAssertGreaterThan(peakKiB, 0, "the gate's peak was read while it ran")
        XCTAssertLessThan(peakKiB, 200_000, "the gate's peak resident size, in KiB: it must not hold the 200 MB")
    }
    /// Defect 13: `compare` must stay linear in the size of its files. It used to keep a
    /// dictionary per row (≈10 bytes resident per byte of CSV: 50 MB files, 561 MB); it now
    /// folds rows as it reads them. Two sizes, 4× apart: processor time grows about 4× (16×
    /// would be quadratic) and memory by at most 2.5 bytes per byte added (the old reader: 4.9).
    func testCompareStaysLinearInTheSizeOfItsFiles() throws {
        func measure(megabytes: Double) throws -> (seconds: Double, peakBytes: Double, inputBytes: Double) {
            let directory = try temporaryDirectory()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var inputBytes = 0.0
            let paths = try ["base", "new"].enumerated().map { side, name -> String in
                let url = directory.appendingPathComponent("\(name).csv")
                var text = ResultsFiles.requiredResultsColumns.joined(separator: ",") + "\n"
                var benchCase = 0
                while Double(text.utf8.count) < megabytes * 1e6 {
                    benchCase += 1
                    for trial in 1...10 {
                        for (metric, unit) in [
                            ("ns_per_event", "ns"), ("events_per_sec", "1/s"), ("wall_time_s", "s"), ("invariant_violations", "count"),
                        ] {
                            let value = metric == "invariant_violations" ? 0 : 100 + Double((benchCase * 31 + trial * 7 + side) % 13)
                            text += "r,2026-11-23T00:00:00Z,h,cpu,2,linux,6.3,c,release,quick,observeOn.throughput,serial,drain,"
                            text += "\(1 + benchCase % 256),\(1_000 + benchCase),0,0,\(trial),\(metric),\(value),\(unit)\n"
                        }
                    }
                }
                try text.write(to: url, atomically: true, encoding: .utf8)
                inputBytes += Double(text.utf8.count)
                return url.path
            }
            let (status, usage) = try Self.spawnAndWait(executable.path, ["compare", paths[0], paths[1], "--format", "csv"])
            XCTAssertTrue([0, 2].contains(status), "compare of \(megabytes) MB files exited \(status)")
            // Processor time, which work beside the test (a loaded runner) does not stretch.
            let seconds = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
            return (seconds, Double(usage.ru_maxrss) * 1_024, inputBytes)
        }
        let small = try measure(megabytes: 1.5)
        let large = try measure(megabytes: 6)
        XCTAssertLessThan(large.seconds / small.seconds, 10, "time: \(small.seconds) s, then \(large.seconds) s")
        let bytesPerByte = (large.peakBytes - small.peakBytes) / (large.inputBytes - small.inputBytes)
        XCTAssertLessThan(bytesPerByte, 2.5, "resident bytes per byte of input: \(small.peakBytes) B, then \(large.peakBytes) B")
    }

    /// Runs `executable arguments…` with its output discarded; its exit status and its own
    /// resource usage (not that of the other children this process has had).
    private static func spawnAndWait(_ executable: String, _ arguments: [String]) throws -> (status: Int32, usage: rusage) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard result == 0 else { throw XCTSkip("cannot start \(executable): \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        return ((status >> 8) & 0xFF, usage)
    }
}
