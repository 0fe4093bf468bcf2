import BenchModel
import RxSchedulers

/// Every stress scenario, in `StressScenarioName` order: the one place a scenario is
/// listed. What each checks is stated by the scenario itself; which seeded bug each
/// catches, by the catalogue (scripts/seeded-bugs.txt).
enum StressScenarios {
    static let all: [any CataloguedStressScenario.Type] = [
        MPSCSpecScenario.self,
        ObserveOnDisposeScenario.self,
        ObserveOnStopScenario.self,
        SubscribeStormScenario.self,
        MainCountingScenario.self,
        PeriodicStallScenario.self,
        TrampolineTreeScenario.self,
        BatchedSpecScenario.self,
        DisposalSiteScenario.self,
        SubjectDeliveryScenario.self,
        MergeFanInScenario.self,
        SchedulerContractScenario.self,
    ]

    static func type(of name: StressScenarioName) -> any CataloguedStressScenario.Type {
        guard let scenario = all.first(where: { $0.name == name }) else {
            preconditionFailure("no scenario is registered as \(name.rawValue)")
        }
        return scenario
    }
}

extension StressScenarioName {
    /// One line for `schedbench list`.
    package var summary: String { StressScenarios.type(of: self).summary }
    /// The violation kinds the scenario checks; `stress.csv` has a row for each, zeros included.
    package var checks: [ViolationKind] { StressScenarios.type(of: self).checks }

    /// A new instance of the scenario.
    func make() -> any StressScenario { StressScenarios.type(of: self).init() }
}

extension StressResult {
    /// An empty result of `scenario`, with a zero for every violation kind it checks.
    package init(scenario: StressScenarioName, seed: UInt64, hooksCompiled: Bool, spinners: Int = StressOptions.defaultSpinners, seededBug: String? = nil) {
        self.init(scenario: scenario, checks: scenario.checks, seed: seed, hooksCompiled: hooksCompiled, spinners: spinners, seededBug: seededBug)
    }
}
