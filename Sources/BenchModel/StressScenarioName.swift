/// The stress scenarios, by their stable names (`schedbench stress --scenario`,
/// `stress.csv`). Each states a property of the core and checks it on every iteration; the
/// scenario itself (`BenchStress`) says what it checks and which seeded bugs it catches.
package enum StressScenarioName: String, Codable, Sendable, CaseIterable, Comparable {
    case mpscSpec = "mpsc.spec"
    case observeOnDispose = "observeOn.dispose"
    case observeOnStop = "observeOn.stop"
    case subscribeStorm = "subscribe.storm"
    case mainCounting = "main.counting"
    case periodicStall = "periodic.stall"
    case trampolineTree = "trampoline.tree"
    case batchedSpec = "batched.spec"

    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
