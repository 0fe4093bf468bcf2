/// Which algorithm a case uses where there is more than one: a strategy registered under
/// this name. The core's algorithms are named by the core's own stable names, and the
/// runtime looks them up through the core (`ObserveOnStrategy(name:)`,
/// `PeriodicPolicy(rawValue:)`, `SchedulerDispatch(rawValue:)`), so the harness and the
/// core cannot disagree on what a name means; the registry holds each name's axis and
/// description.
package struct StrategyName: OpenName {
    package let rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }

    /// observe(on:) strategies (`ObserveOnStrategy`).
    package static let reference = Self("reference")
    package static let referenceGeneric = Self("referenceGeneric")
    package static let drain = Self("drain")
    /// Periodic policies (`PeriodicPolicy`).
    package static let catchUp = Self("catchUp")
    package static let coalesce = Self("coalesce")
    package static let fixedRate = Self("fixedRate")
    package static let rxRecursive = Self("rxRecursive")
    /// Dispatch on the dispatch-queue schedulers (`SchedulerDispatch`).
    package static let batched = Self("batched")
    package static let perAction = Self("perAction")
    /// Context baselines: raw `DispatchQueue.async` per event, and an `AsyncStream` consumed by a Task.
    package static let gcd = Self("gcd")
    package static let asyncStream = Self("asyncStream")
    /// Peer frameworks: OpenCombine's `receive(on:)`, an actor hop per event, and
    /// swift-async-algorithms' back-pressured `AsyncChannel`.
    package static let openCombine = Self("openCombine")
    package static let actor = Self("actor")
    package static let asyncChannel = Self("asyncChannel")
    /// No hand-off: the consumer runs on the thread that delivers (`merge.throughput`'s
    /// merge straight to its consumer).
    package static let direct = Self("direct")
    /// The workload has a single algorithm.
    package static let none = Self("none")

    /// What a name selects: each name belongs to exactly one axis of a case.
    package enum Axis: String, Codable, Sendable, CaseIterable {
        /// An observe(on:) algorithm (`ObserveOnStrategy`).
        case observeOn
        /// How a dispatch-queue scheduler hands its actions to the queue (`SchedulerDispatch`).
        case dispatch
        /// How a periodic schedule treats missed ticks (`PeriodicPolicy`).
        case periodic
        /// A context baseline: no Rx scheduler, a raw hand-off to compare with.
        case baseline
        /// Another framework's hand-off (OpenCombine, an actor, swift-async-algorithms, a
        /// user's registered hand-off).
        case peer
        /// The workload has a single algorithm.
        case none
    }

    /// The separator of a composite name: `drain+batched` is the observe(on:) strategy
    /// `drain` over a scheduler dispatching `batched`, `catchUp+perAction` the periodic
    /// policy `catchUp` over per-action dispatch. No registered name holds it
    /// (`NameRules`), so a composite cannot be mistaken for one name.
    package static let compositeSeparator: Character = "+"

    /// `primary` (an observe(on:) strategy or a periodic policy) over `dispatch`.
    package init(_ primary: StrategyName, over dispatch: StrategyName) {
        self.init(primary.rawValue + String(Self.compositeSeparator) + dispatch.rawValue)
    }

    /// The observe(on:) strategy or periodic policy a composite name selects; the name
    /// itself otherwise.
    package var primary: StrategyName {
        guard let separator = rawValue.firstIndex(of: Self.compositeSeparator) else { return self }
        return StrategyName(String(rawValue[..<separator]))
    }

    /// The dispatch a composite name selects; nil for a plain name.
    package var dispatchPart: StrategyName? {
        guard let separator = rawValue.firstIndex(of: Self.compositeSeparator) else { return nil }
        return StrategyName(String(rawValue[rawValue.index(after: separator)...]))
    }

    /// The name a case of `workload` on `scheduler` has today, given the name an older
    /// build wrote for it (results files and histories keep older names): before dispatch
    /// was an axis of `schedule.throughput` on the serial and concurrent schedulers, their
    /// cases ran the default dispatch, `perAction`, under `none`.
    package static func current(_ written: StrategyName, workload: WorkloadName, scheduler: SchedulerName) -> StrategyName {
        if written == .none, workload == .scheduleThroughput, scheduler == .serial || scheduler == .concurrent { return .perAction }
        return written
    }

    /// The built-in strategies and the peers' hand-offs in the order the built-in executable
    /// lists them: where a report or a table puts them, whatever executable measured.
    package static let listingOrder: [StrategyName] = [
        .reference, .referenceGeneric, .drain, .catchUp, .coalesce, .fixedRate, .rxRecursive, .batched, .perAction, .gcd, .asyncStream,
        .actor, .direct, .none, .openCombine, .asyncChannel, StrategyName("nioExecute"),
    ]

    /// `names` in listing order: the built-ins' in `listingOrder`, then any others (a
    /// user's own) by spelling.
    package static func ordered(_ names: some Sequence<StrategyName>) -> [StrategyName] {
        let rank = Dictionary(uniqueKeysWithValues: listingOrder.enumerated().map { ($1, $0) })
        // A composite name follows its primary, by spelling.
        return Set(names).sorted { lhs, rhs in
            switch (rank[lhs.primary], rank[rhs.primary]) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default:
                if lhs.primary != rhs.primary { return lhs.primary.rawValue < rhs.primary.rawValue }
                return (lhs.dispatchPart?.rawValue ?? "") < (rhs.dispatchPart?.rawValue ?? "")
            }
        }
    }

    /// A number that stays with this strategy from report to report: its place in
    /// `listingOrder`, or for another name one derived from its spelling.
    package var colorIndex: Int {
        if let index = Self.listingOrder.firstIndex(of: self) { return index }
        return rawValue.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
    }
}
