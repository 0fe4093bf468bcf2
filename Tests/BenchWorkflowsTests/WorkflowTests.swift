import Foundation
import XCTest

@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The tool's workflows driven through their API alone, as a program embedding them
/// would: no command line is parsed and nothing is printed. They measure with the built
/// `schedbench-builtins`.
final class WorkflowTests: XCTestCase {
    private var scratch: URL!
    private var target: MeasuringExecutable!

    override func setUpWithError() throws {
        if runsUnderThreadSanitizer {
            throw XCTSkip("the workflows run schedbench-builtins, which links jemalloc and cannot run under ThreadSanitizer")
        }
        let builtIns = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(ToolLocation.builtInsName).path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtIns), "build schedbench-builtins first (swift build)")
        target = MeasuringExecutable(path: builtIns)
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("workflows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// A run of `cases` by the built-ins into `directory`.
    private func workflow(
        _ directory: URL, provenance: Provenance? = nil, writeReport: Bool = false, history: HistoryLocation? = nil
    ) throws -> RunWorkflow {
        RunWorkflow(
            target: target, cases: cases, options: options, directory: directory, provenance: try provenance ?? target.runProvenance(),
            writeReport: writeReport, history: history)
    }

    override func tearDown() {
        // Nil when setUp skipped the test (under ThreadSanitizer).
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    private let cases = [200, 300].map {
        BenchCase(suite: "quick", workload: .trampolineNested, scheduler: .currentThread, strategy: .none, producers: 1, events: $0, payloadBytes: 0, rateHz: 0)
    }

    private var options: RunOptions {
        var options = RunOptions()
        options.trials = 3
        options.warmup = 0
        options.countAllocations = false
        return options
    }

    /// A run with a report and a history: the results, the report and the stored run are
    /// all there, and a second run into the same directory is refused before it measures.
    func testRunWithReportAndHistory() throws {
        let history = try HistoryLocation(scratch.appendingPathComponent("history.sqlite").path)
        let directory = scratch.appendingPathComponent("run")
        let workflow = try self.workflow(directory, writeReport: true, history: history)
        let outcome = try workflow.execute()

        XCTAssertTrue(outcome.isClean)
        XCTAssertEqual(outcome.run.writtenCases, 2)
        XCTAssertEqual(outcome.earlierFiles, [])
        let report = try XCTUnwrap(try outcome.report?.get())
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.path))
        guard case .added(.added(let stored, _)) = outcome.history else { return XCTFail("not added: \(String(describing: outcome.history))") }
        XCTAssertEqual(stored, 2)
        XCTAssertEqual(try History(history, create: false).runs().map(\.runID), [workflow.provenance.runID])

        let again = try self.workflow(directory)
        XCTAssertThrowsError(try again.execute()) { error in
            XCTAssertEqual(error as? BenchError, .resultsExist(path: directory.appendingPathComponent(ResultsFiles.resultsName).path))
        }
        var replacing = again
        replacing.replaceExisting = true
        XCTAssertEqual(try replacing.execute().earlierFiles.count, 2)
    }

    /// A run that does not finish cleanly (cancelled) is not added to the history.
    func testAnInterruptedRunIsNotAddedToTheHistory() throws {
        let history = try HistoryLocation(scratch.appendingPathComponent("history.sqlite").path)
        final class CancelAfterFirst: BenchObserver, @unchecked Sendable {
            let token = CancellationToken()
            func benchEvent(_ event: BenchEvent) { if case .caseFinished = event { _ = token.cancel() } }
        }
        let observer = CancelAfterFirst()
        let outcome = try workflow(scratch.appendingPathComponent("run"), history: history).execute(observer: observer, cancellation: observer.token)
        XCTAssertFalse(outcome.isClean)
        XCTAssertTrue(outcome.run.interrupted)
        guard case .notAdded = outcome.history else { return XCTFail("\(String(describing: outcome.history))") }
    }

    /// Runs added to a history: every run is checked before the history is touched, so one
    /// unreadable run adds nothing; a run added twice is left as it is.
    func testAddingRunsToAHistoryChecksThemAllFirst() throws {
        let history = try HistoryLocation(scratch.appendingPathComponent("history.sqlite").path)
        let run = scratch.appendingPathComponent("run")
        XCTAssertTrue(try workflow(run).execute().isClean)
        let missing = scratch.appendingPathComponent("missing").path

        var added: [String] = []
        XCTAssertThrowsError(try HistoryWorkflow.add(runs: [run.path, missing], to: history) { runID, _ in added.append(runID) })
        XCTAssertEqual(added, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("history.sqlite").path), "the history was not created")

        var outcomes: [History.AddOutcome] = []
        try HistoryWorkflow.add(runs: [run.path, run.path], to: history) { _, outcome in outcomes.append(outcome) }
        XCTAssertEqual(outcomes, [.added(cases: 2, values: outcomes.first.flatMap { if case .added(_, let values) = $0 { values } else { nil } } ?? -1), .alreadyStored])
    }

    /// Defects: `history add` stored a run whose run id was empty or held a line break, and
    /// a run whose cases had failed their correctness checks. Both are refused, naming the
    /// problem, and nothing is added.
    func testAddingRefusesABlankRunIDAndAFailedRun() throws {
        let history = try HistoryLocation(scratch.appendingPathComponent("history.sqlite").path)
        let run = scratch.appendingPathComponent("run")
        XCTAssertTrue(try workflow(run).execute().isClean)
        let results = try String(contentsOf: run.appendingPathComponent("results.csv"), encoding: .utf8)
        let runID = try XCTUnwrap(results.split(separator: "\n").dropFirst().first?.split(separator: ",").first.map(String.init))

        func copy(_ name: String, _ edit: (String) -> String) throws -> String {
            let directory = scratch.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try edit(results).write(to: directory.appendingPathComponent("results.csv"), atomically: true, encoding: .utf8)
            return directory.path
        }
        let blank = try copy("blank") { $0.replacingOccurrences(of: "\n\(runID),", with: "\n,") }
        let quoted = try copy("newline") { $0.replacingOccurrences(of: "\n\(runID),", with: "\n\"a\nb\",") }
        let failed = try copy("failed") { text in
            var replaced = false
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                guard !replaced, line.contains(",invariant_violations,0,") else { return String(line) }
                replaced = true
                return line.replacingOccurrences(of: ",invariant_violations,0,", with: ",invariant_violations,1,")
            }.joined(separator: "\n")
        }
        for (path, expected) in [(blank, "run id"), (quoted, "run id"), (failed, "failed their correctness checks")] {
            var added: [String] = []
            XCTAssertThrowsError(try HistoryWorkflow.add(runs: [run.path, path], to: history) { runID, _ in added.append(runID) }) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(path): \(error)")
            }
            XCTAssertEqual(added, [], path)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("history.sqlite").path))
    }

    /// NEW judged against the runs a history holds, through `ComparisonWorkflow` alone.
    func testCompareWithHistory() throws {
        let history = try HistoryLocation(scratch.appendingPathComponent("history.sqlite").path)
        // The history compares only runs that started before NEW (to the second).
        for index in 0..<2 {
            let outcome = try workflow(
                scratch.appendingPathComponent("base-\(index)"), provenance: .current(date: Date().addingTimeInterval(Double(index) - 10)),
                history: history
            ).execute()
            XCTAssertTrue(outcome.isClean)
        }
        let new = scratch.appendingPathComponent("new")
        XCTAssertTrue(try workflow(new).execute().isClean)

        let csv = scratch.appendingPathComponent("comparison.csv")
        let outcome = try ComparisonWorkflow.compare(
            history: history, new: new.path, window: 20, policy: ComparisonPolicy(thresholds: Thresholds(defaultThreshold: 0.05)), writingCSVTo: csv)
        let comparison = try XCTUnwrap(outcome.comparison)
        XCTAssertEqual(Set(comparison.rows.map(\.benchCase)), Set(cases))
        XCTAssertTrue(FileManager.default.fileExists(atPath: csv.path))
        // Two runs in each window: fewer than five, which the outcome says.
        XCTAssertTrue(outcome.notices.contains { if case .note(let text) = $0 { text.contains("fewer than 5 comparable runs") } else { false } }, "\(outcome.notices)")
        if case .mismatched(let problem) = outcome.decision { XCTFail(problem) }

        // A history that holds nothing of NEW's: nothing to compare, said as a decision.
        let empty = try HistoryLocation(scratch.appendingPathComponent("empty.sqlite").path)
        _ = try History(empty, create: true)
        let nothing = try ComparisonWorkflow.compare(history: empty, new: new.path, window: 20, policy: ComparisonPolicy(thresholds: Thresholds(defaultThreshold: 0.05)))
        XCTAssertNil(nothing.comparison)
        guard case .mismatched = nothing.decision else { return XCTFail("\(nothing.decision)") }
    }

    /// A gate of one build against itself, through `GateWorkflow` alone: both sides'
    /// results, the paired comparison, comparison.csv and the report.
    func testGateThroughTheEngine() throws {
        let executable = target.path
        let directory = scratch.appendingPathComponent("gate")
        let runs = InterleavedRuns(baseline: executable, candidate: executable, cases: cases, options: options, rounds: 2, directory: directory)
        let outcome = try GateWorkflow(runs: runs, policy: ComparisonPolicy(thresholds: Thresholds(defaultThreshold: 0.05))).execute()

        XCTAssertTrue(outcome.finished)
        let comparison = try XCTUnwrap(outcome.comparison?.comparison)
        XCTAssertEqual(Set(comparison.rows.map(\.benchCase)), Set(cases))
        XCTAssertTrue(comparison.rows.allSatisfy { $0.estimator == .paired || $0.estimator == .single }, "\(comparison.rows.map(\.estimator))")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent(ComparisonFile.name).path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(try outcome.report?.get()).path))
        for side in GateSide.allCases {
            XCTAssertEqual(try ResultsFiles.read(runs.resultsDirectory(side).path).cases.count, 2)
        }
    }

    /// A gate whose rounds run both sides at once: each side's measuring child waits (up
    /// to a deadline) for the other side's to start, which only sides run together see;
    /// each round starts both sides before the next round starts either; and the rounds
    /// pair as they do one side after the other.
    func testAGateWithBothSidesOfARoundAtOnce() throws {
        let sides = try GateSide.allCases.map { try waitingForTheOtherSide($0) }
        let directory = scratch.appendingPathComponent("gate-together")
        var runs = InterleavedRuns(baseline: sides[0], candidate: sides[1], cases: cases, options: options, rounds: 2, directory: directory)
        runs.sidesTogether = true
        let events = EventLog()
        let outcome = try GateWorkflow(runs: runs, policy: ComparisonPolicy(thresholds: Thresholds(defaultThreshold: 0.05)))
            .execute(observer: events)

        XCTAssertTrue(outcome.finished)
        for side in GateSide.allCases {
            let saw = scratch.appendingPathComponent("\(side.rawValue)-saw-the-other").path
            XCTAssertTrue(FileManager.default.fileExists(atPath: saw), "\(side)'s first measuring child ran to its deadline without the other side's starting")
        }
        let started = events.rounds
        XCTAssertEqual(started.count, 4)
        XCTAssertEqual(Set(started.prefix(2).map(\.side)), Set(GateSide.allCases))
        XCTAssertEqual(started.map(\.round), [1, 1, 2, 2])
        let comparison = try XCTUnwrap(outcome.comparison?.comparison)
        XCTAssertEqual(Set(comparison.rows.map(\.benchCase)), Set(cases))
        XCTAssertTrue(comparison.rows.allSatisfy { $0.estimator == .paired || $0.estimator == .single }, "\(comparison.rows.map(\.estimator))")
        for side in GateSide.allCases {
            let results = try ResultsFiles.read(runs.resultsDirectory(side).path)
            XCTAssertEqual(results.cases.count, 2)
        }
    }

    /// The cases a gate recounts: those whose instruction row its rounds call regressed or
    /// improved, in plan order; a change of another metric, or an undecided count, is not
    /// recounted.
    func testAGateRecountsTheCasesWhoseInstructionCountChanged() {
        let plan = [1, 2, 3, 4].map {
            BenchCase(suite: "instructions", workload: .trampolineNested, scheduler: .currentThread, strategy: .none, producers: $0, events: 2_000, payloadBytes: 0, rateHz: 0)
        }
        func side(_ counts: [(instructions: Double, nanos: Double)]) -> [CaseResult] {
            zip(plan, counts).map { benchCase, value in
                CaseResult(
                    benchCase: benchCase,
                    trials: [0.0, 0.001].enumerated().map { round, wobble in
                        TrialRecord(
                            benchCase: benchCase, trial: round + 1,
                            metrics: [.instructionsPerEvent: value.instructions * (1 + wobble), .instructionsRepeatDifference: 0, .nsPerEvent: value.nanos])
                    })
            }
        }
        let baseline = side([(100, 50), (100, 50), (100, 50), (100, 50)])
        // Producers 4: 20% fewer instructions; 2: 20% more; 3: slower in time only; 1: the same.
        let candidate = side([(100, 50), (120, 50), (100, 90), (80, 50)])
        let policy = ComparisonPolicy(thresholds: Thresholds(defaultThreshold: 0.03), metrics: [.instructionsPerEvent, .nsPerEvent])
        XCTAssertEqual(
            GateWorkflow.changedCounts([.baseline: baseline, .candidate: candidate], of: plan.reversed(), policy: policy).map(\.producers), [4, 2])
        var moving = candidate
        moving[1].trials[0].metrics[.instructionsRepeatDifference] = 0.05
        XCTAssertEqual(
            GateWorkflow.changedCounts([.baseline: baseline, .candidate: moving], of: plan, policy: policy).map(\.producers), [4],
            "a count already seen to move is undecided, not recounted")
    }

    /// A stable count whose two rounds put it past half the threshold without deciding it
    /// is recounted; one undecided short of that, or whose rounds moved past the repeat
    /// limit, is not.
    func testAGateRecountsAStableCountUndecidedPastHalfTheThreshold() throws {
        let plan = [1, 2, 3, 4, 5].map {
            BenchCase(suite: "instructions", workload: .trampolineNested, scheduler: .currentThread, strategy: .none, producers: $0, events: 2_000, payloadBytes: 0, rateHz: 0)
        }
        func side(_ rounds: [(Double, Double)]) -> [CaseResult] {
            zip(plan, rounds).map { benchCase, counts in
                CaseResult(
                    benchCase: benchCase,
                    trials: [counts.0, counts.1].enumerated().map { round, count in
                        TrialRecord(
                            benchCase: benchCase, trial: round + 1, metrics: [.instructionsPerEvent: count, .instructionsRepeatDifference: 0])
                    })
            }
        }
        let baseline = side([(100, 100.01), (100, 100.01), (100, 100.01), (100, 100.99), (100, 100.01)])
        // Producers 1: +3.1% and +3.4% in its two rounds (0.4% apart: stable); 2: +2% and
        // +2.9%, past half the threshold but short of it, as a change of 3.1% read among
        // other cases' threads once was; 3: +3.1% and +4.5% (1.4% apart: past the repeat
        // limit of 1%); 4: +1% and -1% (each side's rounds 0.99% apart, the other way
        // round), undecided about no change; 5: -0.2% and +0.7%, decided unchanged.
        let candidate = side([(103.1, 103.41), (102, 102.91), (103.1, 104.51), (100.99, 100), (99.8, 100.71)])
        let policy = ComparisonPolicy(thresholds: Thresholds(defaultThreshold: 0.03), metrics: [.instructionsPerEvent])
        let rows = Comparison(base: baseline, new: candidate, thresholds: policy.thresholds, metrics: policy.metrics, method: policy.method, paired: true).rows
        XCTAssertEqual(rows.map(\.verdict), [.inconclusive, .inconclusive, .inconclusive, .inconclusive, .unchanged])
        XCTAssertEqual(rows.map { $0.unstableRepeat == nil }, [true, true, false, true, true])
        XCTAssertEqual(GateWorkflow.changedCounts([.baseline: baseline, .candidate: candidate], of: plan, policy: policy).map(\.producers), [1, 2])
        var improved = candidate
        improved[0].trials[0].metrics[.instructionsPerEvent] = 96.9
        improved[0].trials[1].metrics[.instructionsPerEvent] = 96.61
        XCTAssertEqual(
            GateWorkflow.changedCounts([.baseline: baseline, .candidate: improved], of: plan, policy: policy).map(\.producers), [1, 2],
            "an undecided count past the threshold the other way is recounted too")
    }

    /// A recounted case (one holding rounds past the gate's) is judged on its recount's
    /// rounds alone; the others on all of theirs.
    func testARecountedCaseIsJudgedOnItsRecountsRounds() {
        let cases = [1, 2].map {
            BenchCase(suite: "instructions", workload: .trampolineNested, scheduler: .currentThread, strategy: .none, producers: $0, events: 2_000, payloadBytes: 0, rateHz: 0)
        }
        let results = zip(cases, [2, 10]).map { benchCase, rounds in
            CaseResult(
                benchCase: benchCase,
                trials: (1...rounds).map { TrialRecord(benchCase: benchCase, trial: $0, metrics: [.instructionsPerEvent: Double($0)]) })
        }
        let judged = GateWorkflow.judgedRounds(results, rounds: 2)
        XCTAssertEqual(judged.map { $0.trials.map(\.trial) }, [[1, 2], Array(3...10)])
        XCTAssertEqual(judged[1].values(.instructionsPerEvent), (3...10).map(Double.init))
    }

    /// A side's rounds ask one child for every case; the rounds run again (`runMore`, a
    /// gate's recount) ask one child for each case, so none is measured after another's
    /// threads. Every round's results are kept, the recount's numbered on.
    func testRoundsRunAgainMeasureEachCaseInAChildOfItsOwn() throws {
        let requests = scratch.appendingPathComponent("cases-per-request")
        let launcher = try self.launcher("counting", whenMeasuring: """
            grep -o '"payloadBytes"' "$request" | wc -l >> '\(requests.path)'
            """)
        let runs = InterleavedRuns(
            baseline: target.path, candidate: launcher, cases: cases, options: options, rounds: 2,
            directory: scratch.appendingPathComponent("gate-alone"), trialsPerRound: 1)

        var done = try XCTUnwrap(try runs.execute())
        XCTAssertTrue(try runs.runMore(2, of: cases, after: &done))

        let sizes = try String(contentsOf: requests, encoding: .utf8).split(separator: "\n").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        XCTAssertEqual(sizes, [2, 2, 1, 1, 1, 1], "two rounds of both cases, then two rounds of one child a case")
        XCTAssertEqual(done.last, 4)
        for side in GateSide.allCases {
            let written = try ResultsFiles.read(runs.resultsDirectory(side).path).cases
            XCTAssertEqual(written.map(\.benchCase), cases, "\(side)")
            XCTAssertEqual(written.map { $0.trials.map(\.trial) }, [[1, 2, 3, 4], [1, 2, 3, 4]], "\(side)")
        }
    }

    #if ValidationSlowdown
    /// A gate that counts instructions recounts, alone, the cases its two rounds call
    /// changed, in more rounds (two here). The candidate's launcher adds a counted spin
    /// (`SCHEDBENCH_SLOWDOWN=…:countSpin=TURNS`) to one case in every process, as a change
    /// of the build would, and to the other only in its first two rounds' processes, as a
    /// count that keeps a level a process does. Both are called regressed after two rounds;
    /// each row is then decided on the recount's rounds alone: the first stays regressed,
    /// and the second, which the recount counted unchanged, is not.
    func testAGateRecountsAChangedInstructionCountAndKeepsOnlyAChangeTheRecountRepeats() throws {
        guard ExecutableSearch.onPath("valgrind") != nil else { throw XCTSkip("valgrind is not installed") }
        let cases = [2_000, 3_000].map {
            BenchCase(suite: "instructions", workload: .trampolineNested, scheduler: .currentThread, strategy: .none, producers: 1, events: $0, payloadBytes: 0, rateHz: 0)
        }
        let (built, levelled) = (cases[0], cases[1])
        // The spin is asked by each counting trial's name: a tenth of the case's events, then half.
        func spin(_ benchCase: BenchCase) -> String {
            [benchCase.events / 10, benchCase.events / 2].map { events -> String in
                var trial = benchCase
                trial.events = events
                return "\(trial.benchmarkName):countSpin=60"
            }.joined(separator: ",")
        }
        let rounds = scratch.appendingPathComponent("candidate-rounds")
        let launcher = try self.launcher("candidate", whenMeasuring: """
            echo round >> '\(rounds.path)'
            export SCHEDBENCH_SLOWDOWN='\(spin(built))'
            if [ "$(wc -l < '\(rounds.path)')" -le 2 ]; then SCHEDBENCH_SLOWDOWN="$SCHEDBENCH_SLOWDOWN,\(spin(levelled))"; fi
            """)
        var options = RunOptions()
        options.warmup = 0
        options.countAllocations = false
        options.countInstructions = true
        var runs = InterleavedRuns(
            baseline: target.path, candidate: launcher, cases: [built, levelled], options: options, rounds: 2,
            directory: scratch.appendingPathComponent("gate-recount"), trialsPerRound: 1)
        runs.sidesTogether = true
        let events = EventLog()
        var gate = GateWorkflow(
            runs: runs, policy: ComparisonPolicy(thresholds: Thresholds(defaultThreshold: 0.03), metrics: [.instructionsPerEvent]))
        gate.confirmationRounds = 2
        let outcome = try gate.execute(observer: events)

        XCTAssertTrue(outcome.finished)
        XCTAssertEqual(events.recounts.map(\.cases), [[built, levelled]], "both counts changed in the first two rounds")
        XCTAssertEqual(events.recounts.map(\.rounds), [2])
        XCTAssertEqual(events.rounds.map(\.round), [1, 1, 2, 2, 3, 3, 4, 4])
        let rows = try XCTUnwrap(outcome.comparison?.comparison).rows
        let kept = try XCTUnwrap(rows.first { $0.benchCase == built })
        XCTAssertEqual(kept.verdict, .regressed, "\(kept)")
        XCTAssertEqual([kept.baseTrials, kept.newTrials], [2, 2], "decided on the recount's two rounds")
        XCTAssertNil(kept.unstableRepeat)
        let cleared = try XCTUnwrap(rows.first { $0.benchCase == levelled })
        XCTAssertNotEqual(cleared.verdict, .regressed, "\(cleared)")
        XCTAssertEqual(cleared.newMedian / cleared.baseMedian, 1, accuracy: 0.001, "\(cleared)")
        XCTAssertEqual(cleared.newTrials, 2)
        let written = try ResultsFiles.read(runs.resultsDirectory(.candidate).path).cases
        XCTAssertEqual(written.map { $0.values(.instructionsPerEvent).count }, [4, 4], "the recount's rounds are written with the others")
    }
    #endif

    /// A launcher of the built-ins for `side` of a gate: the side's first child asked to
    /// measure marks that `side` is measuring, then waits up to 60 s for the other side's
    /// mark, noting in `<side>-saw-the-other` when it came; any other child runs at once.
    private func waitingForTheOtherSide(_ side: GateSide) throws -> String {
        let other = GateSide.allCases.first { $0 != side }!
        let (mine, theirs) = (scratch.appendingPathComponent("\(side.rawValue)-measuring").path, scratch.appendingPathComponent("\(other.rawValue)-measuring").path)
        let saw = scratch.appendingPathComponent("\(side.rawValue)-saw-the-other").path
        return try launcher(side.rawValue, whenMeasuring: """
            if [ ! -e '\(mine)' ]; then
              touch '\(mine)'
              tries=0
              while [ ! -e '\(theirs)' ] && [ $tries -lt 1200 ]; do sleep 0.05; tries=$((tries + 1)); done
              if [ -e '\(theirs)' ]; then touch '\(saw)'; fi
            fi
            """)
    }

    /// Writes `<name>.sh` in the scratch folder, an executable that stands in for the
    /// built-ins: it keeps the request from its standard input in a file (`$request`), runs
    /// `whenMeasuring` when the request asks to measure rather than describe, then runs the
    /// built-ins on the request in that same shell, so a variable `whenMeasuring` exports
    /// reaches them, and exits with their status. Returns its path.
    private func launcher(_ name: String, whenMeasuring: String) throws -> String {
        let launcher = scratch.appendingPathComponent("\(name).sh")
        let script = """
            #!/bin/sh
            request=$(mktemp)
            cat > "$request"
            if ! grep -q '"describe"' "$request"; then
            \(whenMeasuring)
            fi
            '\(target.path)' "$@" < "$request"
            status=$?
            rm -f "$request"
            exit $status

            """
        try script.write(to: launcher, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: launcher.path)
        return launcher.path
    }
}

/// The rounds a gate started, and the recounts, in order; safe from the threads of both sides.
private final class EventLog: BenchObserver {
    private let started = Locked<[(round: Int, side: GateSide)]>([])
    private let recounted = Locked<[(cases: [BenchCase], rounds: Int)]>([])

    var rounds: [(round: Int, side: GateSide)] { started.withLock { $0 } }
    var recounts: [(cases: [BenchCase], rounds: Int)] { recounted.withLock { $0 } }

    func benchEvent(_ event: BenchEvent) {
        switch event {
        case .roundStarted(let round, _, let side): started.withLock { $0.append((round, side)) }
        case .recountStarted(let cases, let rounds): recounted.withLock { $0.append((cases, rounds)) }
        default: break
        }
    }
}
