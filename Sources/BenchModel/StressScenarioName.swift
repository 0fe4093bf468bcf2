/// The stress scenarios, by their stable names (`schedbench stress --scenario`,
/// `stress.csv`). Each states a property of the core and checks it on every iteration; the
/// scenario itself (`BenchStress`) says what it checks; the seeded-bug catalogue
/// (scripts/seeded-bugs.txt) says which planted bug each catches.
package enum StressScenarioName: String, Codable, Sendable, CaseIterable, Comparable {
    case mpscSpec = "mpsc.spec"
    case observeOnDispose = "observeOn.dispose"
    case observeOnStop = "observeOn.stop"
    case subscribeStorm = "subscribe.storm"
    case mainCounting = "main.counting"
    case periodicStall = "periodic.stall"
    case trampolineTree = "trampoline.tree"
    case batchedSpec = "batched.spec"
    case disposalSite = "disposal.site"
    case subjectDelivery = "subject.delivery"
    case mergeFanIn = "merge.fanIn"
    /// The contract of any registered scheduler (`stress --scheduler NAME`).
    case schedulerContract = "scheduler.contract"

    /// The scenarios a run without `--scenario` runs: the core's, or with `--scheduler` the
    /// contract scenario alone (against that scheduler).
    package static func defaults(targetingScheduler: Bool) -> [StressScenarioName] {
        targetingScheduler ? [.schedulerContract] : allCases.filter { $0 != .schedulerContract }
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
