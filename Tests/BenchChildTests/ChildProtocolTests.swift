import Foundation
import XCTest

@testable import BenchChild
@testable import BenchModel
import BenchTestSupport

/// The child protocol's messages and the parent's side of it (`ChildProcess`), against
/// small scripts that play a child: well-behaved, silent, crashing, garbled.
final class ChildProtocolTests: XCTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: .drain,
        producers: 4, events: 1_000, payloadBytes: 64, rateHz: 0)

    private func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
        var line = try ChildMessage.encoder().encode(value)
        XCTAssertFalse(line.contains(UInt8(ascii: "\n")), "a message must fit on one line")
        line.append(UInt8(ascii: "\n"))
        return try ChildMessage.decoder().decode(Value.self, from: line)
    }

    func testARequestRoundTrips() throws {
        var options = RunOptions()
        options.trials = 3
        options.countInstructions = true
        let request = ChildRequest(job: .counting(.allocations), cases: [benchCase], options: options)
        XCTAssertEqual(try roundTrip(request), request)
    }

    func testAReplyCarriesSamplesOverheadAndNonFiniteValues() throws {
        var result = CaseResult(
            benchCase: benchCase,
            trials: [
                TrialRecord(benchCase: benchCase, trial: 1, metrics: [.nsPerEvent: 42.5, .latencyMax: .infinity, .cpuSys: .nan])
            ], violationSamples: [ViolationSample(phase: .timed, trial: 1, description: "producer 0: event 3 delivered again")])
        result.overhead = HarnessOverhead(pairs: [(on: 102, off: 100), (on: 104, off: 100)])
        result.instructionOverhead = 0.009
        let reply = ChildReply(
            version: ChildRequest.currentVersion, provenance: Provenance.current(),
            outcomes: [
                .init(benchCase: benchCase, result: result, operations: 1_000),
                .init(benchCase: benchCase, error: .caseCannotRun("no threads")),
            ],
            failure: nil)
        let back = try roundTrip(ChildMessage.reply(reply))
        guard case .reply(let decoded) = back else { return XCTFail("expected a reply") }
        let trial = try XCTUnwrap(decoded.outcomes.first?.result?.trials.first)
        XCTAssertEqual(trial.metrics[.nsPerEvent], 42.5)
        XCTAssertEqual(trial.metrics[.latencyMax], .infinity)
        XCTAssertTrue(trial.metrics[.cpuSys]!.isNaN)
        XCTAssertEqual(
            decoded.outcomes.first?.result?.violationSamples, [ViolationSample(phase: .timed, trial: 1, description: "producer 0: event 3 delivered again")])
        XCTAssertEqual(decoded.outcomes.first?.result?.overhead?.pairs, 2)
        XCTAssertEqual(decoded.outcomes.first?.result?.instructionOverhead, 0.009)
        XCTAssertEqual(decoded.outcomes.first?.operations, 1_000)
        XCTAssertEqual(decoded.outcomes.last?.error, .caseCannotRun("no threads"))
    }

    func testLinesSplitAcrossChunks() {
        var splitter = LineSplitter()
        XCTAssertEqual(splitter.append(Data("ab".utf8)), [])
        XCTAssertEqual(splitter.append(Data("c\n\nde\nf".utf8)), [Data("abc".utf8), Data("de".utf8)])
        XCTAssertEqual(splitter.append(Data("\n".utf8)), [Data("f".utf8)])
    }

    func testTheErrorTailIsBounded() {
        let tail = TailBuffer(limit: 16)
        for line in 0..<100 { tail.append(Data("line \(line)\n".utf8)) }
        XCTAssertEqual(tail.lastLines(2), "line 98 | line 99")
    }

    // MARK: Misbehaving children

    /// A shell script standing in for `schedbench`: `_child` is its first argument.
    private func fakeChild(_ body: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fake-child-\(UUID().uuidString).sh")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private func request() -> ChildRequest { ChildRequest(job: .cases, cases: [benchCase], options: RunOptions()) }

    private func failure(of script: String) throws -> String {
        do {
            _ = try ChildProcess(binary: try fakeChild(script)).run(request())
        } catch let error as BenchError {
            guard case .childFailed(_, let problem) = error else {
                XCTFail("unexpected \(error)")
                return ""
            }
            return problem
        }
        XCTFail("the child should have failed")
        return ""
    }

    func testAChildThatAnswersIsHeardAndItsEventsForwarded() throws {
        let event = String(decoding: try ChildMessage.encoder().encode(ChildMessage.event(.trialStarted(benchCase, trial: 1, of: 5))), as: UTF8.self)
        let reply = String(
            decoding: try ChildMessage.encoder().encode(
                ChildMessage.reply(
                    ChildReply(version: ChildRequest.currentVersion, provenance: Provenance.current(), outcomes: [], failure: nil))), as: UTF8.self)
        // The script checks it was started as `_child` and given the request, and prints to stdout, which must be ignored.
        let script = """
            [ "$1" = "_child" ] || exit 9
            grep -q '"version":\(ChildRequest.currentVersion)' || exit 8
            echo noise
            printf '%s\\n' '\(event)' >&3
            printf '%s\\n' '\(reply)' >&3
            """
        let heard = EventLog()
        let answer = try ChildProcess(binary: try fakeChild(script)).run(request(), observer: heard)
        XCTAssertEqual(answer.version, ChildRequest.currentVersion)
        XCTAssertEqual(heard.count, 1)
    }

    func testACrashIsReportedBySignalNameWithTheLastWordsOnStderr() throws {
        let problem = try failure(of: "echo 'about to crash' >&2; kill -SEGV $$")
        XCTAssertTrue(problem.contains("killed by SIGSEGV") && problem.contains("about to crash"), problem)
    }

    func testAChildThatExitsWithoutAReplySaysSo() throws {
        let problem = try failure(of: "exit 3")
        XCTAssertTrue(problem.contains("exited with status 3 without a reply"), problem)
    }

    func testAChildThatRefusesTheRequestAsUsageIsAUsageError() throws {
        do {
            _ = try ChildProcess(binary: try fakeChild("echo 'error: no workload named x' >&2; exit 64")).run(request())
            XCTFail("the child should have failed")
        } catch BenchError.usage(let message) {
            XCTAssertEqual(message, "no workload named x")
        }
    }

    func testGarbageOnTheReplyStreamIsAProtocolError() throws {
        let problem = try failure(of: "echo 'this is not json' >&3")
        XCTAssertTrue(problem.contains("not a child-protocol message"), problem)
    }

    func testAnotherProtocolVersionIsRefused() throws {
        let reply = String(
            decoding: try ChildMessage.encoder().encode(
                ChildMessage.reply(
                    ChildReply(version: 99, provenance: Provenance.current(), outcomes: [], failure: nil))), as: UTF8.self)
        let problem = try failure(of: "printf '%s\\n' '\(reply)' >&3")
        XCTAssertTrue(problem.contains("speaks child protocol 99"), problem)
    }

    /// A child given a processor runs there from its start, and the thread that started it
    /// keeps the processors it had.
    func testAChildGivenAProcessorIsConfinedToIt() throws {
        let before = Processors.allowed()
        let processor = try XCTUnwrap(before.last)
        let script = "grep Cpus_allowed_list /proc/$$/status >&2; exit 1"
        var child = ChildProcess(binary: try fakeChild(script))
        child.processor = processor
        XCTAssertThrowsError(try child.run(request())) { error in
            XCTAssertEqual(allowedList(in: "\(error)"), "\(processor)", "\(error)")
        }
        XCTAssertEqual(Processors.allowed(), before)
        if before.count > 1 {
            XCTAssertNotEqual(allowedList(in: try failure(of: script)), "\(processor)", "without one, the child may run wherever this process may")
        }
    }

    /// The processor list a child's `grep Cpus_allowed_list /proc/$$/status` printed.
    private func allowedList(in message: String) -> String? {
        guard let label = message.range(of: "Cpus_allowed_list:\t") else { return nil }
        return String(message[label.upperBound...].prefix { $0.isNumber || $0 == "," || $0 == "-" })
    }

    /// A child given a real-time priority runs under SCHED_FIFO at it (and so does what it
    /// starts); one given none, under the normal scheduler.
    func testAChildGivenARealTimePriorityRunsUnderFIFO() throws {
        if let refusal = RealTimeScheduling.refusal { throw XCTSkip("this process may not: \(refusal)") }
        // /proc/PID/stat after the command's name: the 38th and 39th fields are the
        // real-time priority and the policy (1: SCHED_FIFO).
        let script = "cat /proc/$$/stat | sed 's/.*) //' | cut -d' ' -f38,39 | sed 's/^/policy /' >&2; exit 1"
        var child = ChildProcess(binary: try fakeChild(script))
        child.realTimePriority = RealTimeScheduling.priority
        XCTAssertThrowsError(try child.run(request())) { error in
            XCTAssertTrue("\(error)".contains("policy \(RealTimeScheduling.priority) 1"), "\(error)")
        }
        XCTAssertTrue(try failure(of: script).contains("policy 0 0"), "without one, the normal scheduler")
    }

    /// A child that cannot be started at its real-time priority is not started, and the
    /// message names the priority and why.
    func testAChildThatCannotRunAtItsRealTimePriorityIsNotStarted() throws {
        var child = ChildProcess(binary: try fakeChild("exit 0"))
        child.realTimePriority = 100
        XCTAssertThrowsError(try child.run(request())) { error in
            XCTAssertTrue("\(error)".contains("under SCHED_FIFO at priority 100: Invalid argument"), "\(error)")
        }
        let refusal = try XCTUnwrap(RealTimeScheduling.refusal(at: 100))
        XCTAssertTrue(refusal.contains("at priority 100 failed: Invalid argument"), refusal)
    }

    /// What `run` and `gate` say of how they count: real-time where asked and permitted,
    /// else the normal scheduler and why.
    func testHowCountingIsScheduledIsSaid() {
        var options = RunOptions()
        XCTAssertTrue(RealTimeScheduling.countingScheduler(options, refusal: nil).contains("real-time scheduling (SCHED_FIFO at priority 1)"))
        let refused = RealTimeScheduling.countingScheduler(options, refusal: "no leave")
        XCTAssertTrue(refused.contains("normal scheduler, because no leave: cross-thread counts move"), refused)
        options.countUnderRealTime = false
        XCTAssertTrue(RealTimeScheduling.countingScheduler(options, refusal: nil).contains("as asked (--no-real-time-counting)"))
    }

    func testAChildCannotBeConfinedToAProcessorThisProcessMayNotUse() throws {
        let unusable = try XCTUnwrap((0..<1_024).last { !Processors.allowed().contains($0) })
        var child = ChildProcess(binary: try fakeChild("exit 0"))
        child.processor = unusable
        XCTAssertThrowsError(try child.run(request())) { error in
            XCTAssertTrue("\(error)".contains("on processor \(unusable): Invalid argument"), "\(error)")
        }
    }

    func testTheChildRunsInItsOwnProcessGroup() throws {
        let problem = try failure(of: "echo \"pgid $(cut -d' ' -f5 /proc/$$/stat) pid $$\" >&2; exit 1")
        let words = problem.split(separator: " ")
        guard let pgid = words.firstIndex(of: "pgid").map({ words[$0 + 1] }), let pid = words.firstIndex(of: "pid").map({ words[$0 + 1] }) else {
            return XCTFail(problem)
        }
        XCTAssertEqual(pgid, pid, "the child leads a process group of its own")
    }
}

private final class EventLog: BenchObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [BenchEvent] = []
    func benchEvent(_ event: BenchEvent) { lock.withLock { events.append(event) } }
    var count: Int { lock.withLock { events.count } }
}
