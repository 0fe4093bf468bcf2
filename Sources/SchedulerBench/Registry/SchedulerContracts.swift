/// What a registered scheduler promises about the actions scheduled on it. The workloads
/// check what a scheduler claims while they measure (an overlap or an order violation is
/// an invariant violation of the case), and `schedbench stress --scheduler` checks it under
/// perturbation: claim only what the scheduler guarantees.
///
/// Every scheduler is held to the contract of `ImmediateSchedulerType` whatever it claims:
/// each scheduled action runs exactly once unless its disposable was disposed first, and an
/// action disposed before it started never runs.
public struct SchedulerContracts: OptionSet, Sendable, Hashable {
    /// The claims as bits (`OptionSet`).
    public let rawValue: UInt32
    /// The claims whose bits `rawValue` holds.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// One action at a time (no two actions overlap), and each scheduling thread's actions
    /// run in the order that thread scheduled them. Implies `.ordered`.
    /// (RxSwift: `SerialDispatchQueueScheduler`, `MainScheduler`.)
    public static let serial = SchedulerContracts(rawValue: 1 << 0)

    /// Each scheduling thread's actions run in the order that thread scheduled them, though
    /// actions scheduled from different threads may overlap (RxSwift:
    /// `CurrentThreadScheduler`, which runs each thread's actions on that thread).
    public static let ordered = SchedulerContracts(rawValue: 1 << 1)

    /// Whether actions never overlap.
    package var isSerial: Bool { contains(.serial) }
    /// Whether each scheduling thread's actions run in order.
    package var keepsProducerOrder: Bool { contains(.serial) || contains(.ordered) }

    /// The claims as words, for `schedbench list`.
    package var names: [String] {
        (contains(.serial) ? ["serial"] : []) + (contains(.ordered) && !contains(.serial) ? ["ordered"] : [])
    }
}
