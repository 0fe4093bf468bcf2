import XCTest

@testable import BenchModel

final class NamesTests: XCTestCase {
    /// A name must fit every place names go: command-line lists, CSV cells, export paths.
    func testNameRulesNameTheProblem() {
        XCTAssertNil(NameRules.problem(with: "observeOn.throughput"))
        XCTAssertNil(NameRules.problem(with: "my_loop-2"))
        XCTAssertEqual(NameRules.problem(with: ""), "is empty")
        XCTAssertEqual(NameRules.problem(with: String(repeating: "a", count: 65)), "is longer than 64 characters")
        for bad in ["a,b", "<b>x</b>", "ßched", "a b"] {
            XCTAssertEqual(NameRules.problem(with: bad), "may hold only letters, digits, '.', '_' and '-'", bad)
        }
    }

    /// Reports and tables list the built-ins in their listing order, then other names by
    /// spelling; a name keeps its colour from report to report.
    func testStrategiesListInTheBuiltInsOrderThenBySpelling() {
        let order = StrategyName.ordered([StrategyName("zeta"), .drain, .gcd, .reference, StrategyName("alpha")])
        XCTAssertEqual(order, [.reference, .drain, .gcd, StrategyName("alpha"), StrategyName("zeta")])
        XCTAssertEqual(StrategyName("alpha").colorIndex, StrategyName("alpha").colorIndex)
        XCTAssertNotEqual(StrategyName.reference.colorIndex, StrategyName.drain.colorIndex)
    }

    /// A composite strategy (an observe(on:) strategy or periodic policy over a dispatch)
    /// splits into its parts, reads from results files, and lists right after its primary.
    func testACompositeStrategyNameSplitsReadsAndListsAfterItsPrimary() {
        let composite = StrategyName(.drain, over: .batched)
        XCTAssertEqual(composite.rawValue, "drain+batched")
        XCTAssertEqual(composite.primary, .drain)
        XCTAssertEqual(composite.dispatchPart, .batched)
        XCTAssertEqual(StrategyName.drain.primary, .drain)
        XCTAssertNil(StrategyName.drain.dispatchPart)

        XCTAssertNil(NameRules.problem(withStrategy: "drain+batched"))
        XCTAssertNil(NameRules.problem(withStrategy: "drain"))
        XCTAssertEqual(NameRules.problem(withStrategy: "a+b+c"), "joins more than two names with '+'")
        XCTAssertEqual(NameRules.problem(withStrategy: "drain+"), "has a part that is empty")
        XCTAssertEqual(NameRules.problem(withStrategy: "a b"), "may hold only letters, digits, '.', '_' and '-'")

        let order = StrategyName.ordered([StrategyName("catchUp+batched"), .gcd, composite, .catchUp, StrategyName("drain+perAction"), .drain])
        XCTAssertEqual(order.map(\.rawValue), ["drain", "drain+batched", "drain+perAction", "catchUp", "catchUp+batched", "gcd"])
    }

    /// Where a violation was seen reads as a person says it.
    func testAViolationSamplesLocationNamesRoundPhaseAndTrial() {
        XCTAssertEqual(ViolationSample(phase: .timed, trial: 3, description: "x").location, "timed trial 3")
        XCTAssertEqual(ViolationSample(phase: .warmup, trial: 1, description: "x").location, "warmup trial 1")
        XCTAssertEqual(ViolationSample(round: 4, phase: .counting, trial: 0, description: "x").location, "round 4, counting trial")
    }
}
