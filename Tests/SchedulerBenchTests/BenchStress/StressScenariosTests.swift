import XCTest

@testable import BenchModel
@testable import BenchStress
@testable import RxSchedulers

/// The catalogue: every scenario name has exactly one scenario, which describes itself.
final class StressScenariosTests: XCTestCase {
    func testEveryNameHasOneScenarioInTheCatalogue() {
        XCTAssertEqual(StressScenarios.all.map { $0.name }.sorted(), StressScenarioName.allCases.sorted())
        for name in StressScenarioName.allCases {
            let scenario = StressScenarios.type(of: name)
            XCTAssertEqual(scenario.name, name)
            XCTAssertFalse(scenario.summary.isEmpty, name.rawValue)
            XCTAssertTrue(scenario.checks.contains(.crash) && scenario.checks.contains(.hang), "\(name.rawValue) checks crashes and hangs")
            XCTAssertFalse(scenario.catches.isEmpty, "\(name.rawValue) catches a seeded bug")
            XCTAssertTrue(type(of: name.make()) == scenario, name.rawValue)
        }
    }

    /// Every seeded bug is claimed by a scenario, which is shown to catch it
    /// (`scripts/stress-catalogue.sh`, StressCommandTests).
    func testEverySeededBugHasAScenarioThatCatchesIt() {
        let claimed = Set(StressScenarios.all.flatMap { $0.catches })
        XCTAssertEqual(claimed, Set(SeededBug.allCases), "unclaimed: \(Set(SeededBug.allCases).subtracting(claimed))")
    }
}
