import XCTest

@testable import RxSchedulers

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The catalogue: every scenario name has exactly one scenario, which describes itself.
final class StressScenariosTests: XCTestCase {
    func testEveryNameHasOneScenarioInTheCatalogue() {
        XCTAssertEqual(StressScenarios.all.map { $0.name }.sorted(), StressScenarioName.allCases.sorted())
        for name in StressScenarioName.allCases {
            let scenario = StressScenarios.type(of: name)
            XCTAssertEqual(scenario.name, name)
            XCTAssertFalse(scenario.summary.isEmpty, name.rawValue)
            XCTAssertTrue(scenario.checks.contains(.crash) && scenario.checks.contains(.hang), "\(name.rawValue) checks crashes and hangs")
            XCTAssertTrue(type(of: name.make()) == scenario, name.rawValue)
        }
    }

    /// The seeded-bug catalogue (scripts/seeded-bugs.txt) names real scenarios and kinds
    /// they check, and every scenario of the core has a bug it is shown to catch
    /// (scripts/seeded-bugs.py check runs them).
    func testTheSeededBugCatalogueNamesScenariosAndKindsTheyCheck() throws {
        let text = try String(contentsOf: Repository.file("scripts/seeded-bugs.txt"), encoding: .utf8)
        var caught = Set<StressScenarioName>()
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(fields.count, 6, String(line))
            let parts = fields[5].split(separator: ":").map(String.init)
            let scenario = try XCTUnwrap(StressScenarioName(rawValue: parts[0]), fields[5])
            for name in parts[1].split(separator: "|").map(String.init) {
                let kind = try XCTUnwrap(ViolationKind(rawValue: name), fields[5])
                XCTAssertTrue(scenario.checks.contains(kind), "\(fields[0]): \(scenario.rawValue) does not check \(kind.rawValue)")
            }
            caught.insert(scenario)
        }
        XCTAssertEqual(caught, Set(StressScenarioName.defaults(targetingScheduler: false)), "a scenario no seeded bug shows catching anything")
    }
}
