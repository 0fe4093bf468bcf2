import Foundation
import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class StressCommandTests: SchedBenchTestCase {
    func testAShortRunPassesAndWritesStressCSV() throws {
        let out = try temporaryDirectory()
        let run = try schedbench([
            "stress", "--scenario", "trampoline.tree,mpsc.spec", "--iterations", "20", "--seed", "11", "--out", out.path, "--format", "markdown",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("stress: seed 11, 2 scenarios, 20 iterations each"), run.stderr)
        XCTAssertTrue(run.stdout.contains("| mpsc.spec | passed | 20 |"), run.stdout)
        let csv = try String(contentsOf: out.appendingPathComponent("stress.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n")
        XCTAssertTrue(
            lines[0].hasPrefix("run_id,timestamp,host,cpu,cores,os,swift,commit,build,kernel,governor,cpu_limit,load_avg,scenario,seed,iterations"),
            String(lines[0]))
        XCTAssertTrue(lines.contains { $0.contains(",trampoline.tree,11,20,") && $0.contains(",violation,reorder,forbidden,0") }, csv)
        XCTAssertTrue(lines.contains { $0.contains(",mpsc.spec,11,20,") && $0.contains(",violation,hang,forbidden,0") }, csv)
        // The same --out again: the results there are kept, and the run refuses.
        let again = try schedbench(["stress", "--scenario", "trampoline.tree", "--iterations", "1", "--out", out.path])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("holds another run's results"), again.stderr)
    }

    func testUsageErrorsNameTheProblem() throws {
        for (arguments, words) in [
            (["stress", "--scenario", "mpsc.spce"], "unknown scenario 'mpsc.spce'; valid: mpsc.spec, observeOn.dispose"),
            (["stress", "--seed", "0"], "--seed 0 is not a seed"),
            (["stress", "--duration", "-5"], "--duration -5.0 is outside"),
            (["stress", "--iterations", "0"], "--iterations 0 is outside 1...100000000"),
            (["stress", "--threads", "65"], "--threads 65 is outside 0...64"),
        ] {
            let run = try schedbench(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(words), "\(arguments): \(run.stderr)")
        }
        // The core's own build has no seeded bugs (scripts/seeded-bugs.py makes a copy that
        // has): a run asked for one would pass without it, so it is refused.
        let seeded = try schedbench(["stress", "--iterations", "1"], environment: ["RXSCHEDULERS_SEEDED_BUG": "mainReentrant"])
        XCTAssertEqual(seeded.status, 64)
        XCTAssertTrue(
            seeded.stderr.contains("RXSCHEDULERS_SEEDED_BUG='mainReentrant' is set, but this build has no seeded bugs: build the catalogue with scripts/seeded-bugs.py build"),
            seeded.stderr)
        let points = try schedbench(["stress", "--points", "queueClaimed,noSuchPoint"])
        XCTAssertEqual(points.status, 64)
        XCTAssertTrue(points.stderr.contains("unknown --points 'noSuchPoint'; valid: none, queueClaimed"), points.stderr)
    }

    /// `--scheduler` holds a registered scheduler to its contract: the peers pass, and an
    /// unknown name is a usage error naming the registered ones. (A broken scheduler is
    /// caught in SchedulerContractScenarioTests and by the example package's `twoLoops`.)
    func testStressHoldsARegisteredSchedulerToItsContract() throws {
        let out = try temporaryDirectory()
        let run = try schedbench(["stress", "--scheduler", "nioEventLoop", "--iterations", "30", "--seed", "5", "--out", out.path, "--format", "markdown"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("stress: seed 5, 1 scenarios, 30 iterations each"), run.stderr)
        XCTAssertTrue(run.stdout.contains("| scheduler.contract | passed | 30 |"), run.stdout)

        let unknown = try schedbench(["stress", "--scheduler", "myLoop"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown --scheduler 'myLoop'; registered: currentThread, main"), unknown.stderr)
    }

    /// A child that dies is the scenario's `crash` at the iteration it was in: the other
    /// scenarios still run, the replay command is printed, and the child's backtrace is
    /// kept in the results directory.
    func testACrashKeepsTheChildsBacktraceAndTheOtherScenariosRun() throws {
        let out = try temporaryDirectory()
        let run = try schedbench(
            ["stress", "--scenario", "trampoline.tree,mpsc.spec", "--seed", "9", "--iterations", "6", "--out", out.path],
            environment: ["SCHEDBENCH_INJECT_FAULT": "crash"])
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("iteration 3: crash: killed by SIGILL before it replied"), run.stderr)
        XCTAssertTrue(run.stderr.contains("Program crashed"), "the crash is summed up in words:\n\(run.stderr)")
        XCTAssertTrue(run.stderr.contains("replay: schedbench stress --scenario trampoline.tree --seed 9 --iterations 4 --threads 1"), run.stderr)
        XCTAssertTrue(run.stderr.contains("error: 2 scenario(s) failed: mpsc.spec, trampoline.tree"), "the second scenario ran too:\n\(run.stderr)")
        for scenario in ["trampoline.tree", "mpsc.spec"] {
            let log = out.appendingPathComponent("crash-\(scenario).log")
            XCTAssertTrue(run.stderr.contains("backtrace of the crashed child: \(log.path)"), run.stderr)
            let text = try String(contentsOf: log, encoding: .utf8)
            XCTAssertTrue(text.contains("SCHEDBENCH_INJECT_FAULT=crash: the stress child dies in iteration 3"), text)
            XCTAssertFalse(text.contains("swift runtime: unknown"), "the backtracer takes every setting it is given:\n\(text.prefix(500))")
            XCTAssertTrue(text.contains("crashed:"), "a backtrace of the crashed thread:\n\(text)")
            XCTAssertTrue(text.contains("StressRunner"), "the backtrace names the frames:\n\(text)")
        }
        // A measuring executable named by hand is named in the replay too, so it replays that build.
        let builtIns = executable.deletingLastPathComponent().appendingPathComponent("schedbench-builtins").path
        let named = try schedbench(
            ["stress", "--scenario", "trampoline.tree", "--seed", "9", "--iterations", "6", "--out", try temporaryDirectory().path],
            environment: ["SCHEDBENCH_INJECT_FAULT": "crash", "SCHEDBENCH_TARGET": builtIns])
        XCTAssertEqual(named.status, 3, named.stderr)
        XCTAssertTrue(
            named.stderr.contains("replay: SCHEDBENCH_TARGET=\(builtIns) schedbench stress --scenario trampoline.tree --seed 9 --iterations 4"),
            named.stderr)
        let misspelt = try schedbench(["stress", "--iterations", "1"], environment: ["SCHEDBENCH_INJECT_FAULT": "crsh"])
        XCTAssertEqual(misspelt.status, 64)
        XCTAssertTrue(misspelt.stderr.contains("SCHEDBENCH_INJECT_FAULT='crsh' is not a fault"), misspelt.stderr)
    }

    /// Defect: Ctrl-C did not stop a scenario bounded by iterations (100 million ran on);
    /// the scenario in progress now stops after its current iteration and is kept.
    func testCtrlCStopsAnIterationBoundedScenarioAndKeepsIt() throws {
        try assertCtrlCStopsTheScenarioInProgress()
    }

    /// Defect: a Ctrl-C that came before the scenario's child listened for the request to
    /// stop (a child slow to start, on a loaded machine) was lost, and the scenario ran on.
    /// The request is now asked again until the child has stopped.
    func testCtrlCStopsAScenarioWhoseChildWasSlowToListen() throws {
        try assertCtrlCStopsTheScenarioInProgress(environment: [FaultInjection.environmentKey: FaultInjection.slowStressStart.rawValue])
    }

    private func assertCtrlCStopsTheScenarioInProgress(environment: [String: String] = [:]) throws {
        let out = try temporaryDirectory()
        let stress = try launch(
            ["stress", "--scenario", "trampoline.tree", "--iterations", "100000000", "--out", out.path], environment: environment)
        XCTAssertTrue(stress.waitFor(seconds: 60) { _, err in err.contains("stress: seed") }, stress.stderr)
        // The scenario has started once its child exists; a request to stop that reaches the
        // child before it listens is asked again until it does.
        let started = Date().addingTimeInterval(60)
        while Self.children(of: stress.process.processIdentifier).isEmpty && Date() < started { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertFalse(Self.children(of: stress.process.processIdentifier).isEmpty, "the scenario's child never started")
        let interrupted = Date()
        stress.signal(SIGINT)
        let status = stress.exitStatus(within: 30)
        XCTAssertEqual(status, 130, stress.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(interrupted), 30)
        XCTAssertTrue(stress.stderr.contains("interrupted: kept the 1 finished scenarios"), stress.stderr)
        let rows = try StressFile.read(out.appendingPathComponent(StressFile.name).path)
        XCTAssertEqual(Set(rows.map { $0["scenario"] ?? "" }), ["trampoline.tree"])
        // Stopped before its budget ran out, with no violation: kept, and not called a pass.
        XCTAssertEqual(rows.first?["status"], "interrupted")
        XCTAssertTrue(stress.stderr.contains(": interrupted after"), stress.stderr)
        XCTAssertGreaterThan(Int(rows.first?["iterations"] ?? "") ?? 0, 0)
    }

    /// Defect: SIGTERM during `stress` lost the scenarios that had finished (exit 143, no
    /// stress.csv). Now stress.csv is written after every scenario.
    func testSIGTERMKeepsTheFinishedScenarios() throws {
        let out = try temporaryDirectory()
        let file = out.appendingPathComponent(StressFile.name)
        // Two scenarios of 10 s each: the run is terminated once the first is on disk.
        let stress = try launch(["stress", "--scenario", "trampoline.tree,mpsc.spec", "--duration", "20", "--out", out.path])
        XCTAssertTrue(stress.waitFor(seconds: 90) { _, _ in FileManager.default.fileExists(atPath: file.path) }, stress.stderr)
        stress.signal(SIGTERM)
        XCTAssertEqual(stress.exitStatus(within: 30), 143, stress.stderr)
        XCTAssertTrue(stress.stderr.contains("terminated: the scenarios finished so far are in \(file.path)"), stress.stderr)
        let rows = try StressFile.read(file.path)
        XCTAssertEqual(Set(rows.map { $0["scenario"] ?? "" }).count, 1, "the finished scenario, and only it")
    }

    /// Defect: `--out` naming a file failed only after the whole budget ran.
    func testABadOutIsRefusedBeforeAnythingRuns() throws {
        let file = try temporaryDirectory()
        try Data("x".utf8).write(to: file)
        let started = Date()
        let run = try schedbench(["stress", "--duration", "60", "--out", file.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "refused before the 60 s budget ran")
        XCTAssertFalse(run.stderr.contains("stress: seed"), "nothing started:\n\(run.stderr)")
    }

    func testListShowsTheScenarios() throws {
        let run = try schedbench(["list"])
        XCTAssertEqual(run.status, 0)
        for name in [
            "mpsc.spec", "observeOn.dispose", "observeOn.stop", "subscribe.storm", "main.counting", "periodic.stall", "trampoline.tree",
            "batched.spec", "disposal.site", "subject.delivery", "merge.fanIn",
        ] {
            XCTAssertTrue(run.stdout.contains("  \(name) "), name)
        }
    }
}
