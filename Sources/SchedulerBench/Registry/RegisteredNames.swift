import BenchModel

/// A kind of name the registry holds: what a command line may name (`--workload`,
/// `--scheduler`, `--strategy`), checked against what this executable registers.
package protocol RegisteredName: OpenName {
    /// The names of this kind in `registry`, in listing order.
    static func registered(in registry: Registry) -> [Self]
}

extension RegisteredName {
    /// The names of this kind in this process's registry.
    package static var registered: [Self] { registered(in: .current) }
}

extension WorkloadName: RegisteredName {
    package static func registered(in registry: Registry) -> [WorkloadName] { registry.workloads.map(\.name) }
}

extension SchedulerName: RegisteredName {
    /// The registered schedulers, then `none` (the hand-offs' cases).
    package static func registered(in registry: Registry) -> [SchedulerName] { registry.schedulers.map(\.name) + [.none] }
}

extension StrategyName: RegisteredName {
    package static func registered(in registry: Registry) -> [StrategyName] { registry.strategies.map(\.name) }
}
