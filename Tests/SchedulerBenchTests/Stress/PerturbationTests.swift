import XCTest

@testable import SchedulerBench
@testable import RxSchedulers
import BenchTestSupport

/// The iterations' perturbation plans: broad ones and ones focused on one component.
final class PerturbationTests: XCTestCase {
    private func plans(_ count: Int, mask: UInt32 = .max) -> [Perturbation.Plan] {
        var random = StressRandom(seed: 42)
        return (0..<count).map { _ in Perturbation.Plan.random(&random, limitedTo: mask) }
    }

    private func bits(_ points: [StressPoint]) -> UInt32 { points.reduce(0) { $0 | 1 << UInt32($1.rawValue) } }

    func testComponentsAreTheFirstWordOfTheName() {
        XCTAssertEqual(Perturbation.component(of: .emissionDrainExiting), "emission")
        XCTAssertEqual(Perturbation.component(of: .batchExiting), "batch")
        XCTAssertEqual(Perturbation.component(of: .actionQueueClaimed), "action")
        XCTAssertEqual(Perturbation.component(of: .queueClaimed), "queue")
    }

    /// A lost wake-up in batched dispatch was caught with its exit point alone and missed
    /// with every point hot; merge's needs its serializer's points together. So some plans
    /// are one component's points exactly, and every component gets such plans.
    func testSomePlansFocusOnOneComponentAndEachComponentGetsThem() {
        let components = Dictionary(grouping: StressPoint.allCases, by: Perturbation.component(of:)).mapValues(bits)
        let drawn = plans(4_000).map(\.hotPoints)
        for (name, mask) in components {
            XCTAssertTrue(drawn.contains(mask), "no plan focused on \(name)")
        }
        let focused = drawn.filter { Set(components.values).contains($0) }.count
        XCTAssertGreaterThan(focused, 700, "about a quarter of the plans are focused")
        XCTAssertGreaterThan(drawn.filter { $0.nonzeroBitCount > 8 }.count, 2_500, "about three quarters are broad")
    }

    /// `--points` limits every plan to its points; the draws do not depend on the mask, so a
    /// limited run perturbs at the rates of the unlimited run with its seed.
    func testAMaskLimitsEveryPlanToASubsetOfTheUnlimitedOnes() {
        let mask = bits([.batchExiting, .queueClaimed])
        for (limited, unlimited) in zip(plans(1_000, mask: mask), plans(1_000)) {
            XCTAssertEqual(limited.hotPoints & ~mask, 0)
            XCTAssertEqual(limited.threshold, unlimited.threshold)
        }
    }
}
