import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The validation slowdown: in a build with the trait (the debug pass of scripts/test.sh
/// has it), `SCHEDBENCH_SLOWDOWN` names the cases and the share; without the trait the
/// hooks are empty (scripts/test.sh checks a normal release build has none of it).
final class ValidationSlowdownTests: XCTestCase {
    #if ValidationSlowdown
    private let trampoline = BenchCase(
        suite: "test", workload: .trampolineNested, scheduler: .currentThread, strategy: .none, producers: 1, events: 1_000, payloadBytes: 0,
        rateHz: 0)

    func testRequestsNameCasesByPrefixAndShare() throws {
        let requests = try ValidationSlowdown.parse("trampoline.nested/currentThread:10,*:3,schedule.throughput:spin=250,main.inline/:countSpin=0.87")
        XCTAssertEqual(requests.map(\.casePrefix), ["trampoline.nested/currentThread", "*", "schedule.throughput", "main.inline/"])
        XCTAssertEqual(requests.map(\.size), [.share(0.10), .share(0.03), .turns(250), .countedTurns(0.87)])
        XCTAssertTrue(requests[0].matches(trampoline))
        XCTAssertTrue(requests[1].matches(trampoline), "* names every case")
        XCTAssertEqual(
            try ValidationSlowdown.parse("subscribeOn.cycle/mainAsync/:countSpin=1182.18").map(\.size), [.countedTurns(1182.18)],
            "4.1% of a hand-off's 39,822 instructions an event")
        XCTAssertEqual(try ValidationSlowdown.parse(nil), [])
        XCTAssertEqual(try ValidationSlowdown.parse(""), [])
    }

    func testBadRequestsAreErrorsSayingWhatIsExpected() {
        for bad in [
            "trampoline", ":10", "x:0", "x:-5", "x:2000", "x:ten", "x:spin=", "x:spin=-1", "x:spin=2.5", "x:spin=ten", ":spin=5",
            "x:countSpin=", "x:countSpin=0", "x:countSpin=-1", "x:countSpin=100001", "x:countSpin=nan", ":countSpin=1",
        ] {
            XCTAssertThrowsError(try ValidationSlowdown.parse(bad), bad) { error in
                XCTAssertTrue("\(error)".contains("expected CASE-PREFIX:PERCENT, CASE-PREFIX:spin=TURNS or CASE-PREFIX:countSpin=TURNS"), "\(error)")
            }
        }
    }

    func testTheSpinIsTheRequestedShareOfTheMeasuredCost() throws {
        let cost = ValidationSlowdown.spinCost
        let added = try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested:10") { 10_000 }
        XCTAssertEqual(added, 1_000, accuracy: cost.perTurn + 1e-9, "10% of 10,000 ns per event")
        XCTAssertEqual(cost.call + Double(ValidationSlowdown.currentTurns) * cost.perTurn, added, accuracy: 1e-9)
        XCTAssertEqual(try ValidationSlowdown.prepare(for: trampoline, requests: "observeOn:10") { 1_000 }, 0, "another case is not slowed")
        XCTAssertEqual(ValidationSlowdown.currentTurns, -1)
        XCTAssertEqual(try ValidationSlowdown.prepare(for: trampoline, requests: nil) { XCTFail("no calibration without a request"); return 1 }, 0)
    }

    /// A fixed spin is set as asked, without a trial of the case, whatever the case costs.
    func testAFixedSpinIsSetWithoutTrials() throws {
        let cost = ValidationSlowdown.spinCost
        let added = try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested:spin=400") {
            XCTFail("a fixed spin runs no sizing trial")
            return 1
        }
        XCTAssertEqual(ValidationSlowdown.currentTurns, 400)
        XCTAssertEqual(added, cost.call + 400 * cost.perTurn, accuracy: 1e-9)
        XCTAssertEqual(try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested:spin=0") { 1 }, cost.call, accuracy: 1e-9)
        XCTAssertEqual(ValidationSlowdown.currentTurns, 0, "spin=0 still calls the spin: its fixed part alone")
        XCTAssertEqual(try ValidationSlowdown.prepare(for: trampoline, requests: "observeOn:spin=400") { 1 }, 0, "another case is not slowed")
        XCTAssertEqual(ValidationSlowdown.currentTurns, -1)
    }

    /// A counted spin is set as asked, without a trial, adds no time, and leaves the per-event
    /// hook off; a counting trial gets its turns for each event, rounded up.
    func testACountedSpinIsSetWithoutTrialsAndScalesWithTheTrialsEvents() throws {
        let added = try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested/:countSpin=0.87") {
            XCTFail("a counted spin runs no sizing trial")
            return 1
        }
        XCTAssertEqual(added, 0, "a counted spin adds no time")
        XCTAssertEqual(ValidationSlowdown.currentTurns, -1, "no spin at each event")
        XCTAssertEqual(ValidationSlowdown.currentCountedTurns, 0.87)
        XCTAssertEqual(ValidationSlowdown.countedTurns(events: 20_000), 17_400)
        XCTAssertEqual(ValidationSlowdown.countedTurns(events: 2_000), 1_740)
        XCTAssertEqual(ValidationSlowdown.countedTurns(events: 3), 3, "2.61 turns rounded up")
        XCTAssertEqual(ValidationSlowdown.countedTurns(events: 0), 0)
        _ = try ValidationSlowdown.prepare(for: trampoline, requests: "observeOn:countSpin=5") { 1 }
        XCTAssertEqual(ValidationSlowdown.currentCountedTurns, 0, "another case is not slowed")
        XCTAssertEqual(ValidationSlowdown.countedTurns(events: 20_000), 0)
        _ = try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested:countSpin=5") { 1 }
        _ = try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested:spin=3") { 1 }
        XCTAssertEqual(ValidationSlowdown.currentCountedTurns, 0, "a case's request replaces the one before")
        XCTAssertEqual(ValidationSlowdown.currentTurns, 3)
    }

    /// A case that pays a different price for the spin than the spin costs alone (it
    /// overlaps with the event's work, or several stages pay it): the correction lands the
    /// requested share where the first guess alone would miss it.
    func testTheCalibrationCorrectsForWhatTheCasePaysForTheSpin() throws {
        let cost = ValidationSlowdown.spinCost
        let base = 10_000.0
        for paid in [0.5, 1.0, 2.0] {
            var trials = 0
            let added = try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested:10") { () -> Double? in
                trials += 1
                let turns = ValidationSlowdown.currentTurns
                return turns < 0 ? base : base + paid * (cost.call + Double(turns) * cost.perTurn)
            }
            let turns = ValidationSlowdown.currentTurns
            let realized = paid * (cost.call + Double(turns) * cost.perTurn) / base
            XCTAssertEqual(realized, 0.10, accuracy: 0.001 + paid * cost.perTurn / base, "the case pays \(paid)× the spin's cost")
            XCTAssertEqual(added, realized * base, accuracy: 1e-6 * base)
            XCTAssertEqual(trials, 3 * ValidationSlowdown.calibrationPairs, "trials without the spin, then pairs")
        }
    }

    /// A noisy pair cannot blow the spin up: the factor is kept within 0.25–4.
    func testTheCorrectionIsBounded() throws {
        let cost = ValidationSlowdown.spinCost
        _ = try ValidationSlowdown.prepare(for: trampoline, requests: "trampoline.nested:10") { () -> Double? in
            ValidationSlowdown.currentTurns < 0 ? 10_000 : 10_000 + 0.0001
        }
        let bounded = cost.call + Double(ValidationSlowdown.currentTurns) * cost.perTurn
        XCTAssertEqual(bounded, 4 * 1_000, accuracy: cost.perTurn, "a spin that seemed to add almost nothing grows at most fourfold")
    }

    func testASlowedCaseRunsItsCalibrationAndItsTrials() throws {
        setenv("SCHEDBENCH_SLOWDOWN", "trampoline.nested:50", 1)
        defer { unsetenv("SCHEDBENCH_SLOWDOWN") }
        var options = RunOptions()
        options.trials = 2
        options.warmup = 0
        options.countAllocations = false
        let result = try CaseRunner(options: options).run(trampoline)
        XCTAssertEqual(result.trials.count, 2)
        XCTAssertGreaterThanOrEqual(ValidationSlowdown.currentTurns, 0, "the case was slowed")
        XCTAssertEqual(result.trials.compactMap { $0.metrics[.invariantViolations] }, [0, 0])
    }
    #endif

    #if ValidationSlowdown
    /// The spin costs its time where it is called: measured per call, it takes at least
    /// half of what `spinCost` says (a loaded machine can only make it slower).
    func testTheSpinTakesAboutTheTimeItIsMeasuredToTake() {
        let cost = ValidationSlowdown.spinCost
        XCTAssertGreaterThan(cost.call, 0)
        XCTAssertGreaterThan(cost.perTurn, 0)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<10_000 { ValidationSlowdown.spin(1_000) }
        let perCall = Double(DispatchTime.now().uptimeNanoseconds - start) / 10_000
        let expected = cost.call + 1_000 * cost.perTurn
        XCTAssertGreaterThan(perCall, expected / 2)
    }
    #endif

    func testTheHookIsFreeWithoutARequest() {
        // Without the trait, or without SCHEDBENCH_SLOWDOWN, the hook does nothing.
        for _ in 0..<1_000 { ValidationSlowdown.perEvent() }
    }
}
