import Foundation
import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// Runs the built `schedbench` as users do, checking exit codes, messages and files.
final class CommandLineTests: SchedBenchTestCase {
    func testUnknownNamesExitWithUsageAndListTheValidOnes() throws {
        for (option, value, valid) in [
            ("--workload", "observeOn.fast", "observeOn.latency"),
            ("--scheduler", "bogus", "concurrentMain"),
            ("--strategy", "turbo", "drain"),
            ("--suite", "huge", "quick"),
        ] {
            let out = try temporaryDirectory()
            let run = try schedbench(["run", option, value, "--out", out.path])
            XCTAssertEqual(run.status, 64, "\(option) \(value)")
            XCTAssertTrue(run.stderr.contains("'\(value)'") && run.stderr.contains(valid), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written for \(option)")
        }
    }

    func testBadNumbersExitWithUsage() throws {
        for arguments in [["--producers", "0"], ["--producers", "two"], ["--trials", "0"], ["--events", "-5"], ["--rate", "1,x"]] {
            let run = try schedbench(["run", "--suite", "quick", "--dry-run"] + arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertFalse(run.stderr.isEmpty)
        }
    }

    func testUnwritableOutputFailsBeforeMeasuring() throws {
        let file = try temporaryDirectory()
        try Data("not a directory".utf8).write(to: file)
        let run = try schedbench([
            "run", "--suite", "quick", "--workload", "trampoline.nested", "--events", "10",
            "--out", file.appendingPathComponent("results").path,
        ])
        XCTAssertEqual(run.status, 1)
        // Said in words, not as a Foundation error code.
        XCTAssertTrue(run.stderr.contains("cannot write \(file.path)/results: \(file.path) is a file, not a directory"), run.stderr)
        XCTAssertFalse(run.stderr.contains("error 512"), run.stderr)
    }

    func testUnreadableInputIsDescribedInWords() throws {
        let missing = try schedbench(["compare", "/nonexistent", "/nonexistent"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent: cannot read: no such file"), missing.stderr)
        let empty = try temporaryDirectory()
        try Data().write(to: empty)
        let blank = try schedbench(["compare", empty.path, empty.path])
        XCTAssertEqual(blank.status, 1)
        XCTAssertTrue(blank.stderr.contains("empty file"), blank.stderr)
    }

    func testDryRunListsCasesAndSkips() throws {
        let run = try schedbench(["run", "--suite", "quick", "--workload", "observeOn.throughput", "--scheduler", "serial,virtual", "--dry-run"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("observeOn.throughput serial/drain p=4"))
        XCTAssertTrue(run.stdout.contains("skipped observeOn.throughput on virtual: virtual time"))
    }

    func testListNamesEveryWorkloadSchedulerStrategyAndSuite() throws {
        let run = try schedbench(["list"])
        XCTAssertEqual(run.status, 0)
        let described = try described()
        for name in described.workloadNames.map(\.rawValue) + described.schedulerNames.map(\.rawValue)
            + described.strategyNames.map(\.rawValue) + described.suites.map(\.name)
        {
            XCTAssertTrue(run.stdout.contains(name), name)
        }
        // Strategies listed under their axis.
        XCTAssertTrue(run.stdout.contains("  dispatch:\n    batched "), run.stdout)
        // The composites a workload runs when named.
        XCTAssertTrue(run.stdout.contains("when named: reference+batched on main,serial,concurrent;"), run.stdout)
        XCTAssertTrue(run.stdout.contains("drain+batched on serial,concurrent; drain+perAction on main"), run.stdout)
    }

    /// A composite strategy goes from the command line through the plan into the results,
    /// and reads back; a composite no workload runs is refused with the usage status.
    func testACompositeStrategyRunsWhenNamed() throws {
        let out = try temporaryDirectory()
        let run = try schedbench([
            "run", "--workload", "observeOn.throughput", "--scheduler", "serial", "--strategy", "drain+batched", "--producers", "2",
            "--events", "2000", "--trials", "2", "--warmup", "0", "--no-allocations", "--out", out.path, "--quiet", "--no-table",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let (cases, _) = try ResultsFiles.read(out.path)
        XCTAssertEqual(cases.map(\.benchCase.strategy), [StrategyName("drain+batched")])
        let compared = try schedbench(["compare", out.path, out.path])
        XCTAssertEqual(compared.status, 0, compared.stderr)

        let unknown = try schedbench(["run", "--strategy", "drain+fast", "--dry-run"])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("unknown strategy 'drain+fast'; valid: reference, "), unknown.stderr)
    }

    /// A tiny suite end to end: both files exist, follow the schema, and hold every case.
    func testTinyRunWritesResultsThatFollowTheSchema() throws {
        let out = try temporaryDirectory()
        let run = try schedbench([
            "run", "--suite", "quick", "--workload", "observeOn.throughput,trampoline.nested,main.inline",
            "--scheduler", "serial,currentThread,main", "--strategy", "drain,none",
            "--producers", "2", "--events", "300", "--trials", "2", "--warmup", "0",
            "--out", out.path, "--quiet",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let results = try CSVFile.read(out.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
        let summary = try CSVFile.read(out.appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader)
        let expected: Set<String> = [
            "observeOn.throughput serial drain", "observeOn.throughput currentThread drain",
            "observeOn.throughput main drain", "trampoline.nested currentThread none", "main.inline main none",
        ]
        XCTAssertEqual(Set(summary.map { "\($0["workload"]!) \($0["scheduler"]!) \($0["strategy"]!)" }), expected)
        for row in summary {
            XCTAssertEqual(row["trials"], "2")
            XCTAssertEqual(row["invariant_violations"], "0")
            XCTAssertEqual(row["resources_leaked"], "0")
            XCTAssertGreaterThan(Double(row["events_per_sec"]!) ?? 0, 0)
            XCTAssertEqual(row["suite"], "quick")
        }
        for row in results {
            XCTAssertNotNil(Metric(rawValue: row["metric"]!), row["metric"]!)
            XCTAssertTrue(["0", "1", "2"].contains(row["trial"]!))
            XCTAssertEqual(row["run_id"], results[0]["run_id"])
        }
        XCTAssertTrue(run.stdout.contains("ns/event"), "the table is printed")
    }

    /// `main.mixed` (RxSwift issue #2704): with no flood every main-thread call runs inline;
    /// with two threads flooding `MainScheduler.instance`, calls on that shared instance are
    /// forced to enqueue, while a private `main` instance keeps running them inline.
    func testMainMixedInlineShareFallsUnderAFloodOnlyOnTheSharedInstance() throws {
        let out = try temporaryDirectory()
        let run = try schedbench([
            "run", "--workload", "main.mixed", "--scheduler", "main,mainShared", "--strategy", "batched",
            "--producers", "1,3", "--events", "1000", "--rate", "5000", "--trials", "1", "--warmup", "0",
            "--no-allocations", "--out", out.path, "--quiet",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let summary = try CSVFile.read(out.appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader)
        var share: [String: Double] = [:]
        var peak: [String: Double] = [:]
        for row in summary {
            let key = "\(row["scheduler"]!) p=\(row["producers"]!)"
            share[key] = Double(row["inline_share"]!)
            peak[key] = Double(row["pending_peak"]!)
            XCTAssertEqual(row["invariant_violations"], "0", key)
            XCTAssertEqual(row["resources_leaked"], "0", key)
        }
        XCTAssertEqual(share["main p=1"], 1)
        XCTAssertEqual(share["mainShared p=1"], 1)
        XCTAssertEqual(share["main p=3"], 1, "a private instance does not see the shared instance's flood")
        XCTAssertEqual(peak["main p=3"], 0)
        XCTAssertLessThan(try XCTUnwrap(share["mainShared p=3"]), 0.5, "the flood forces the shared instance's callers to enqueue")
        XCTAssertGreaterThan(try XCTUnwrap(peak["mainShared p=3"]), 0)
    }

    /// `pipeline.loading` reports what the screen did: some loads show the spinner (the 8 ms
    /// data always loses to the 5 ms spinner unless the timer is late), and each of those
    /// subscribes to the data source twice (amb cancels the first request; concat starts
    /// another), so subscriptions per load are exactly 1 + the spinner's share.
    func testPipelineLoadingReportsTheSpinnerAndTheSourceSubscriptions() throws {
        let out = try temporaryDirectory()
        let run = try schedbench([
            "run", "--workload", "pipeline.loading", "--scheduler", "serial", "--events", "30",
            "--trials", "1", "--warmup", "0", "--no-allocations", "--out", out.path, "--quiet",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let row = try XCTUnwrap(try CSVFile.read(out.appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader).first)
        let shown = try XCTUnwrap(Double(row["spinner_shown"] ?? ""))
        let subscriptions = try XCTUnwrap(Double(row["source_subscriptions"] ?? ""))
        XCTAssertGreaterThan(shown, 0)
        XCTAssertLessThan(shown, 1, "the 1 ms data beats the 5 ms spinner")
        XCTAssertEqual(subscriptions, 1 + shown, accuracy: 1e-9)
        XCTAssertNotNil(Double(row["spinner_min_violations"] ?? ""))
        XCTAssertEqual(row["invariant_violations"], "0")
    }

    /// Runs one small observeOn.throughput case with the injected duplicate: it must exit 3,
    /// name the violation, and still write results that count it.
    private func assertInjectedDuplicateIsCaught(
        strategy: String, scheduler: String = "serial", workload: String = "observeOn.throughput", extra: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let out = try temporaryDirectory()
        let run = try schedbench(
            [
                "run", "--suite", "quick", "--workload", workload, "--scheduler", scheduler,
                "--strategy", strategy, "--producers", "1", "--events", "200", "--trials", "1",
                "--warmup", "0", "--no-allocations", "--out", out.path, "--quiet",
            ] + extra,
            environment: [FaultInjection.environmentKey: "duplicate"])
        XCTAssertEqual(run.status, 3, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains("timed trial 1: producer 0: event 0 delivered again"), run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains("what was violated: \(out.path)/violations.csv"), run.stderr, file: file, line: line)
        let summary = try CSVFile.read(out.appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader)
        XCTAssertEqual(summary.first?["invariant_violations"], "1", file: file, line: line)
        let violations = try CSVFile.read(out.appendingPathComponent("violations.csv"), requiring: ResultsFiles.violationsHeader)
        XCTAssertEqual(violations.map { "\($0["phase"]!) \($0["trial"]!)" }, ["timed 1"], file: file, line: line)
        XCTAssertTrue(violations.first?["description"]?.contains("event 0 delivered again") == true, "\(violations)", file: file, line: line)
    }

    func testAnInjectedDuplicateFailsTheRunWithExitThreeAndKeepsTheResults() throws {
        try assertInjectedDuplicateIsCaught(strategy: "reference")
        // Fan-in alone: the merge straight to its consumer, and into observe(on:).
        try assertInjectedDuplicateIsCaught(strategy: "direct", scheduler: "none", workload: "merge.throughput")
        try assertInjectedDuplicateIsCaught(strategy: "drain", workload: "merge.throughput")
    }

    /// The same fault through every baseline and peer framework's hand-off: the checks see
    /// what each delivers, whatever carried it.
    func testAnInjectedDuplicateIsCaughtThroughEveryPeerFramework() throws {
        for strategy in ["gcd", "asyncStream", "openCombine", "actor", "asyncChannel"] {
            try assertInjectedDuplicateIsCaught(strategy: strategy, scheduler: "none")
        }
    }

    /// `--isolate` runs each case in a child (`_child`); what the child found must come back
    /// whole: the violations' count and their descriptions.
    func testAnIsolatedRunKeepsViolationSamples() throws {
        try assertInjectedDuplicateIsCaught(strategy: "drain", extra: ["--isolate"])
    }

    func testRunHasNoChildOnlyFlags() throws {
        let help = try schedbench(["run", "--help", "--help-hidden"])
        XCTAssertEqual(help.status, 0, help.stderr)
        for flag in ["--case", "--counting-only", "--unchecked"] {
            XCTAssertFalse(help.stdout.contains(flag), "\(flag) in:\n\(help.stdout)")
        }
        XCTAssertFalse(try schedbench(["--help"]).stdout.contains("_child"), "the child subcommand is not listed")
        let byHand = try schedbench(["_child"])
        XCTAssertEqual(byHand.status, 64, "a person starting _child is told what it is")
        XCTAssertTrue(byHand.stderr.contains("started by schedbench itself"), byHand.stderr)
    }

    /// The trampoline runs on one thread, so callgrind's count repeats however loaded the
    /// machine is (20 of 20 runs exact with both cores busy). The main thread's run loop,
    /// waking up or still leaving a block during the trial, used to move it by up to 5%
    /// under load; the 0.1% tolerance leaves room only for the allocator's shared state.
    /// The same holds for its two counts in the run's two counting processes
    /// (`instructions_repeat_difference`).
    func testInstructionCountsRepeatForASingleThreadedCaseHoweverLoadedTheMachineIs() throws {
        guard ExecutableSearch.onPath("valgrind") != nil else { throw XCTSkip("valgrind is not installed") }
        var counts: [String] = []
        for _ in 0..<2 {
            let out = try temporaryDirectory()
            let run = try schedbench([
                "run", "--suite", "quick", "--workload", "trampoline.nested", "--events", "2000",
                "--trials", "1", "--warmup", "0", "--no-allocations", "--instructions",
                "--out", out.path, "--quiet", "--no-table",
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
            let results = try CSVFile.read(out.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
            let rows = results.filter { $0["metric"] == Metric.instructionsPerEvent.rawValue }
            XCTAssertEqual(rows.count, 1)
            XCTAssertEqual(rows.first?["trial"], "0")
            XCTAssertEqual(rows.first?["events"], "2000")
            counts += rows.compactMap { $0["value"] }
            let repeated = results.filter { $0["metric"] == Metric.instructionsRepeatDifference.rawValue }
            XCTAssertEqual(repeated.count, 1)
            XCTAssertLessThanOrEqual(try XCTUnwrap(Double(repeated.first?["value"] ?? "")), 0.001, "its two counts, in two processes, agree")
        }
        XCTAssertEqual(counts.count, 2)
        let (first, second) = (Double(counts[0]) ?? 0, Double(counts[1]) ?? 0)
        XCTAssertGreaterThan(first, 10, "a nested schedule executes more than a few instructions")
        XCTAssertEqual(first, second, accuracy: first / 1_000, "instruction counts repeat within 0.1%")
    }

    /// Each instruction-counting child runs on one processor: a `valgrind` first on `PATH`
    /// notes where each child may run, then runs the real one.
    /// Each counting child keeps to one of this process's processors, under SCHED_FIFO where
    /// this process may start it so (the run says which), and `--no-real-time-counting`
    /// keeps it under the normal scheduler.
    func testEachCountingChildKeepsToOneProcessor() throws {
        guard let valgrind = ExecutableSearch.onPath("valgrind") else { throw XCTSkip("valgrind is not installed") }
        let bin = try temporaryDirectory()
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let noted = bin.appendingPathComponent("processors")
        try """
            #!/bin/sh
            echo "$(grep Cpus_allowed_list /proc/$$/status | cut -f2) $(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f39)" >> '\(noted.path)'
            exec '\(valgrind)' "$@"

            """.write(to: bin.appendingPathComponent("valgrind"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("valgrind").path)
        let out = try temporaryDirectory()
        let run = try schedbench(
            [
                "run", "--suite", "quick", "--workload", "trampoline.nested", "--events", "2000",
                "--trials", "1", "--warmup", "0", "--no-allocations", "--instructions", "--out", out.path, "--no-table",
            ], environment: ["PATH": "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("run: \(RealTimeScheduling.countingScheduler(RunOptions()))"), run.stderr)
        let children = try String(contentsOf: noted, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(children.count, 2, "one case, counted in two children")
        let allowed = Set(Processors.allowed().map(String.init))
        let policy = RealTimeScheduling.refusal == nil ? "1" : "0"
        for child in children {
            XCTAssertTrue(allowed.contains(child[0]), "a child may run on \(child[0]) only, one of this process's processors")
            XCTAssertEqual(child.last, policy, "SCHED_FIFO (1) where permitted, else the normal scheduler (0)")
        }
        let normal = try XCTUnwrap(try SchedBench.parseAsRoot(["run", "--instructions", "--no-real-time-counting"]) as? RunCommand)
        XCTAssertFalse(normal.options.countUnderRealTime)
        XCTAssertTrue(try XCTUnwrap(try SchedBench.parseAsRoot(["run", "--instructions"]) as? RunCommand).options.countUnderRealTime)
    }

    #if ValidationSlowdown
    /// A counted spin (`SCHEDBENCH_SLOWDOWN=CASE:countSpin=TURNS`, for validating the
    /// instruction gate) adds its turns to each event's count and nothing else: twice the
    /// turns add twice the instructions, with no fixed part, and the per-event count does
    /// not depend on how many events the trial had.
    func testACountedSpinAddsItsTurnsToEveryEventsCount() throws {
        guard ExecutableSearch.onPath("valgrind") != nil else { throw XCTSkip("valgrind is not installed") }
        func count(_ slowdown: String?, events: Int = 2_000) throws -> Double {
            let out = try temporaryDirectory()
            let run = try schedbench(
                [
                    "run", "--suite", "quick", "--workload", "trampoline.nested", "--events", "\(events)",
                    "--trials", "1", "--warmup", "0", "--no-allocations", "--instructions", "--out", out.path, "--quiet", "--no-table",
                ], environment: ["SCHEDBENCH_SLOWDOWN": slowdown ?? ""])
            XCTAssertEqual(run.status, 0, run.stderr)
            let results = try CSVFile.read(out.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
            return try XCTUnwrap(results.first { $0["metric"] == Metric.instructionsPerEvent.rawValue }.flatMap { Double($0["value"] ?? "") })
        }
        let plain = try count(nil)
        let two = try count("trampoline.nested/currentThread/:countSpin=2") - plain
        let four = try count("trampoline.nested/currentThread/:countSpin=4") - plain
        let fourAtMoreEvents = try count("trampoline.nested/currentThread/:countSpin=4", events: 6_000) - plain
        XCTAssertGreaterThan(two, 2, "a turn counts more than one instruction")
        XCTAssertEqual(four, 2 * two, accuracy: plain / 1_000, "twice the turns, twice the instructions")
        XCTAssertEqual(fourAtMoreEvents, four, accuracy: plain / 1_000, "the same per event at three times the events")
        XCTAssertEqual(try count("observeOn:countSpin=4"), plain, accuracy: plain / 1_000, "another case's request adds nothing")
    }
    #endif

    /// A run counts its cases' instructions in one valgrind process per processor (at most
    /// 4; each pays valgrind's start-up, about 5 s, once), not two per case, and a case
    /// counts the same there as alone: each trial writes its own callgrind dump, which
    /// covers every thread.
    func testOneValgrindProcessCountsEveryCaseOfARun() throws {
        guard let valgrind = ExecutableSearch.onPath("valgrind") else { throw XCTSkip("valgrind is not installed") }
        let bin = try temporaryDirectory()
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = bin.appendingPathComponent("started")
        let wrapper = bin.appendingPathComponent("valgrind")
        try "#!/bin/sh\necho started >> '\(log.path)'\nexec '\(valgrind)' \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper.path, 0o755)
        let environment = ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        func count(_ workloads: String, _ schedulers: String) throws -> [String: Double] {
            let out = try temporaryDirectory()
            let run = try schedbench(
                [
                    "run", "--suite", "quick", "--workload", workloads, "--scheduler", schedulers, "--producers", "1", "--events", "2000",
                    "--trials", "1", "--warmup", "0", "--no-allocations", "--instructions", "--out", out.path, "--quiet", "--no-table",
                ], environment: environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            let results = try CSVFile.read(out.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
            var counts: [String: Double] = [:]
            for row in results where row["metric"] == Metric.instructionsPerEvent.rawValue {
                counts["\(row["workload"] ?? "") \(row["scheduler"] ?? "")/\(row["strategy"] ?? "")"] = Double(row["value"] ?? "")
            }
            return counts
        }
        let together = try count("trampoline.nested,schedule.throughput", "currentThread,virtual")
        let started = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count
        XCTAssertEqual(started, min(ProcessInfo.processInfo.activeProcessorCount, 4, 3), "one valgrind process per processor for the run's 3 cases")
        XCTAssertEqual(Set(together.keys), ["trampoline.nested currentThread/none", "schedule.throughput currentThread/none", "schedule.throughput virtual/none"])
        // Alone, the trampoline counts as it does after other cases. A case that allocates
        // for every event finds the allocator as the cases before it left it, and the
        // allocator returns freed memory at a pace set by elapsed time (jemalloc's decay),
        // so how much of that work falls in the count depends on the machine's load: 0.2%
        // apart idle, 1.4% beside a CI build. Within the instruction step's 3% threshold is
        // what the gate needs.
        for (workload, scheduler, tolerance) in [("trampoline.nested", "currentThread", 0.001), ("schedule.throughput", "virtual", 0.03)] {
            let alone = try count(workload, scheduler)
            let key = "\(workload) \(scheduler)/none"
            let first = try XCTUnwrap(together[key])
            let second = try XCTUnwrap(alone[key])
            XCTAssertGreaterThan(first, 10)
            XCTAssertEqual(first, second, accuracy: first * tolerance, "\(key) counts the same among others as alone")
        }
    }

    /// Work other threads did before a count starts stays out of it: counted right after
    /// observe(on:) through GCD, whose worker threads run on after its last count,
    /// the trampoline counts what it counts alone, within 0.05%. With callgrind's zero
    /// request alone (no dump before it) a worker's path into its wait landed in the
    /// trampoline's smaller trial: 119.90 instructions an event against 120.35 alone.
    func testACountLeavesOutWhatOtherThreadsDidBeforeIt() throws {
        guard ExecutableSearch.onPath("valgrind") != nil else { throw XCTSkip("valgrind is not installed") }
        func trampoline(after others: [String]) throws -> Double {
            let out = try temporaryDirectory()
            let run = try schedbench(
                [
                    "run", "--suite", "quick", "--workload", (others + ["trampoline.nested"]).joined(separator: ","),
                    "--scheduler", others.isEmpty ? "currentThread" : "none,currentThread", "--strategy", others.isEmpty ? "none" : "gcd,none",
                    "--producers", "1", "--events", "2000", "--trials", "1", "--warmup", "0", "--no-allocations", "--instructions",
                    "--out", out.path, "--quiet", "--no-table",
                ])
            XCTAssertEqual(run.status, 0, run.stderr)
            let results = try CSVFile.read(out.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
            let counted = results.filter { $0["metric"] == Metric.instructionsPerEvent.rawValue }
            XCTAssertEqual(counted.count, others.count + 1, "every case counted")
            let row = try XCTUnwrap(counted.first { $0["workload"] == "trampoline.nested" })
            return try XCTUnwrap(Double(row["value"] ?? ""))
        }
        let afterGCD = try trampoline(after: ["observeOn.throughput"])
        let alone = try trampoline(after: [])
        XCTAssertGreaterThan(alone, 10)
        XCTAssertEqual(afterGCD, alone, accuracy: alone * 0.000_5, "the trampoline after observe(on:) through GCD counts as it does alone")
    }

    /// Writes a results directory with one serial/drain case whose ns/event trials are given.
    private func writeRun(nanos: [Double], violations: Double = 0, producers: Int = 1, provenance: Provenance = .current()) throws -> URL {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let benchCase = BenchCase(
            suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
            producers: producers, events: 1_000, payloadBytes: 0, rateHz: 0)
        let trials = nanos.enumerated().map { index, value in
            TrialRecord(
                benchCase: benchCase, trial: index + 1,
                metrics: [
                    .nsPerEvent: value, .eventsPerSec: 1e9 / value,
                    .invariantViolations: index == 0 ? violations : 0,
                ])
        }
        try ResultsFiles.write([CaseResult(benchCase: benchCase, trials: trials)], provenance: provenance, to: directory)
        return directory
    }

    /// A latency case leaves its distribution over all timed trials as an HdrHistogram
    /// percentile file, in this process and from an `--isolate` child; other cases leave none.
    func testLatencyCasesLeaveHdrHistogramPercentileFiles() throws {
        for extra in [[], ["--isolate"]] {
            let out = try temporaryDirectory()
            let run = try schedbench(
                [
                    "run", "--suite", "quick", "--workload", "observeOn.latency,trampoline.nested", "--scheduler", "serial,currentThread",
                    "--strategy", "drain,none", "--events", "500", "--rate", "50000", "--trials", "2", "--warmup", "0", "--no-allocations",
                    "--out", out.path, "--quiet", "--no-table",
                ] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            let files = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("latency").path)
            XCTAssertEqual(files, ["observeOn.latency-serial-drain-p1-n500-rate50000.hgrm"], "\(extra)")
            let text = try String(contentsOf: out.appendingPathComponent("latency/\(files[0])"), encoding: .utf8)
            XCTAssertTrue(text.contains("Total count    =         1000]"), "two trials of 500 events \(extra):\n\(text)")
        }
    }

    /// Runs from different machines differ by the machines: compare says so, and with
    /// --require-same-testbed refuses (exit 1).
    func testCompareWarnsAboutDifferentTestbedsAndCanRefuseThem() throws {
        var here = Provenance.current()
        here.loadAverage = "0.10"
        var there = here
        there.cpu = "Other CPU"
        there.governor = "powersave"
        let base = try writeRun(nanos: [100, 101, 99, 100, 102], provenance: here)
        let sameTestbed = try writeRun(nanos: [101, 100, 99, 101, 100], provenance: here)
        let otherTestbed = try writeRun(nanos: [101, 100, 99, 101, 100], provenance: there)

        let same = try schedbench(["compare", base.path, sameTestbed.path, "--require-same-testbed"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertFalse(same.stderr.contains("testbed"), same.stderr)

        let warned = try schedbench(["compare", base.path, otherTestbed.path])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(
            warned.stderr.contains("warning: BASE and NEW were measured on different testbeds: cpu '\(here.cpu)' vs 'Other CPU'; governor"),
            warned.stderr)

        let refused = try schedbench(["compare", base.path, otherTestbed.path, "--require-same-testbed"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("error: BASE and NEW were measured on different testbeds"), refused.stderr)
        XCTAssertTrue(refused.stdout.isEmpty, "nothing is compared: \(refused.stdout)")

        var busy = here
        busy.loadAverage = "7.5"
        let loaded = try schedbench(["compare", base.path, try writeRun(nanos: [101, 100, 99, 101, 100], provenance: busy).path])
        XCTAssertTrue(loaded.stderr.contains("warning: NEW started on a busy machine (load average 7.5 on \(here.cores) cores)"), loaded.stderr)
    }

    /// A thresholds file may name any workload (a team's own too); one neither run measured
    /// (a misspelling, say) sets nothing, and the comparison says so.
    func testThresholdsForAWorkloadNeitherRunMeasuredAreReported() throws {
        let base = try writeRun(nanos: [100, 101, 99, 100, 102])
        let new = try writeRun(nanos: [101, 100, 99, 101, 100])
        let thresholds = base.deletingLastPathComponent().appendingPathComponent("thresholds-\(UUID().uuidString).json")
        try Data(#"{"workloads": {"observeOn.latncy": {"latency_p99_ns": 0.3}, "myTeam.fanOut": {}}}"#.utf8).write(to: thresholds)
        defer { try? FileManager.default.removeItem(at: thresholds) }
        let compared = try schedbench(["compare", base.path, new.path, "--thresholds", thresholds.path])
        XCTAssertEqual(compared.status, 0, compared.stderr)
        XCTAssertTrue(
            compared.stderr.contains("warning: the thresholds name workloads neither run measured, so they set nothing: myTeam.fanOut, observeOn.latncy"),
            compared.stderr)
    }

    func testCompareExitCodes() throws {
        let base = try writeRun(nanos: [100, 101, 99, 100, 102])
        let same = try writeRun(nanos: [101, 100, 99, 101, 100])
        let slower = try writeRun(nanos: [130, 131, 129, 130, 132])
        let broken = try writeRun(nanos: [100, 101, 99, 100, 102], violations: 1)
        let other = try writeRun(nanos: [100, 101, 99], producers: 4)

        let unchanged = try schedbench(["compare", base.path, same.path])
        XCTAssertEqual(unchanged.status, 0, unchanged.stderr)
        XCTAssertTrue(unchanged.stdout.contains("unchanged"), unchanged.stdout)

        let regressed = try schedbench(["compare", base.path, slower.path, "--format", "markdown"])
        XCTAssertEqual(regressed.status, 2, regressed.stderr)
        XCTAssertTrue(regressed.stdout.contains("**regressed**"), regressed.stdout)
        XCTAssertEqual(try schedbench(["compare", base.path, slower.path, "--threshold", "50%"]).status, 0, "within a 50% threshold")

        let failing = try schedbench(["compare", base.path, broken.path])
        XCTAssertEqual(failing.status, 3, failing.stderr)
        XCTAssertTrue(failing.stdout.contains("correctness failure in NEW"), failing.stdout)

        let missing = try schedbench(["compare", base.path, "/nonexistent/results.csv"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/results.csv"), missing.stderr)

        let disjoint = try schedbench(["compare", base.path, other.path])
        XCTAssertEqual(disjoint.status, 1, "no case in common")
        XCTAssertTrue(disjoint.stdout.contains("only in NEW"), disjoint.stdout)

        let csv = try schedbench(["compare", base.path, slower.path, "--format", "csv", "--metric", "ns_per_event"])
        XCTAssertEqual(csv.stdout.split(separator: "\n").count, 2, csv.stdout)

        XCTAssertEqual(try schedbench(["compare", base.path, same.path, "--threshold", "lots"]).status, 64)
        // Defect: a negative value was read as an option, and the message said "Missing value".
        let negative = try schedbench(["compare", base.path, same.path, "--threshold", "-1"])
        XCTAssertEqual(negative.status, 64)
        XCTAssertTrue(negative.stderr.contains("--threshold '-1' is not a fraction from 0 up to 10"), negative.stderr)
        XCTAssertEqual(try schedbench(["compare", base.path, same.path, "--metric", "speed"]).status, 64)
        XCTAssertEqual(try schedbench(["compare", base.path, same.path, "--format", "pdf"]).status, 64)
    }

    func testCompareRequireAllFailsOnOneSidedCases() throws {
        let base = try temporaryDirectory()
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let one = try writeRun(nanos: [100, 101, 99])
        let four = try writeRun(nanos: [50, 51, 49], producers: 4)
        let both = try ResultsFiles.read(one.path).cases + ResultsFiles.read(four.path).cases
        try ResultsFiles.write(both, provenance: Provenance.current(), to: base)
        XCTAssertEqual(try schedbench(["compare", base.path, one.path]).status, 0)
        let strict = try schedbench(["compare", base.path, one.path, "--require-all"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("every case must be on both sides"), strict.stderr)
    }

    func testGateRunsBothBuildsInterleavedAndComparesThem() throws {
        let out = try temporaryDirectory()
        // Two rounds are too few for time to be decided; allocation counts repeat exactly,
        // so the same build against itself must pass on them.
        let arguments = [
            "gate", "--baseline", executable.path, "--candidate", executable.path, "--rounds", "2",
            "--metric", "allocs_per_event", "--out", out.path, "--", "--suite", "quick", "--workload", "trampoline.nested", "--events", "2000",
            "--warmup", "0",
        ]
        let run = try schedbench(arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        for side in ["baseline", "candidate"] {
            let cases = try ResultsFiles.read(out.appendingPathComponent(side).path).cases
            XCTAssertEqual(cases.first?.values(.nsPerEvent).count, 2, "two rounds, one trial each")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("comparison.csv").path))
        let report = try String(contentsOf: out.appendingPathComponent("report/index.html"), encoding: .utf8)
        XCTAssertTrue(report.contains("<section id=\"comparison\">"), "the gate's report compares the candidate with the baseline")
        XCTAssertTrue(run.stderr.contains("report: \(out.path)/report/index.html"), run.stderr)

        let faulty = try schedbench(
            arguments.map { $0 == "trampoline.nested" ? "observeOn.throughput" : $0 } + [
                "--scheduler", "serial", "--strategy", "reference", "--producers", "1",
            ],
            environment: [FaultInjection.environmentKey: "duplicate"])
        XCTAssertEqual(faulty.status, 3, faulty.stderr)
        // What failed is said, with its round, and kept in both sides' directories.
        XCTAssertTrue(faulty.stderr.contains("round 2, timed trial 1: producer 0: event 0 delivered again"), faulty.stderr)
        XCTAssertTrue(faulty.stderr.contains("BASE (\(out.path)/baseline) has correctness failures too"), faulty.stderr)
        for side in ["baseline", "candidate"] {
            let rows = try CSVFile.read(out.appendingPathComponent(side).appendingPathComponent("violations.csv"), requiring: ResultsFiles.violationsHeader)
            XCTAssertEqual(Set(rows.map { $0["round"]! }), ["1", "2"], side)
            XCTAssertTrue(rows.contains { $0["phase"] == "timed" && $0["trial"] == "1" }, side)
        }
        let faultyReport = try String(contentsOf: out.appendingPathComponent("report/index.html"), encoding: .utf8)
        XCTAssertTrue(faultyReport.contains("round 1, timed trial 1: producer 0: event 0 delivered again"), "the report shows what was violated")

        XCTAssertEqual(try schedbench(["gate", "--baseline", "/nonexistent", "--candidate", executable.path]).status, 64)
        XCTAssertEqual(try schedbench(["gate", "--baseline", executable.path, "--candidate", executable.path, "--", "--trials", "3"]).status, 64)
        let reportOption = try schedbench(["gate", "--baseline", executable.path, "--candidate", executable.path, "--", "--report"])
        XCTAssertEqual(reportOption.status, 64)
        XCTAssertTrue(reportOption.stderr.contains("gate writes its own report"), reportOption.stderr)
        XCTAssertEqual(try schedbench(["gate", "--baseline", executable.path, "--candidate", executable.path, "--", "--history"]).status, 64)
    }
}
