import RxSchedulers

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

// Short spellings for the tests: what the registry of this process says of a built-in name.

extension SchedulerName {
    /// A fresh instance of the registered scheduler, as a trial gets it.
    func make(strategy: StrategyName = .none) -> any ImmediateSchedulerType {
        Registry.current.scheduler(self)!.instance(strategy: strategy)
    }

    var registration: RegisteredScheduler { Registry.current.scheduler(self)! }
}

extension StrategyName {
    var axis: StrategyName.Axis { Registry.current.strategy(self)!.axis }
    var summary: String { Registry.current.strategy(self)!.summary }
    /// Whether it names a hand-off (a baseline or a peer).
    var isBaseline: Bool { Registry.current.handOffs.contains(self) }
    static var handOffs: [StrategyName] { Registry.current.handOffs }
}

enum HandOffs {
    static func make(_ strategy: StrategyName, deliver: @escaping @Sendable (Item) -> Void) -> any HandOff {
        try! Registry.current.startHandOff(strategy, deliver: deliver)!
    }
}
