import RxSchedulers

/// Which algorithm a case uses where there is more than one: a strategy registered under
/// this name. The core's algorithms are named by the core's own stable names and looked up
/// through the core (`ObserveOnStrategy(name:)`, `PeriodicPolicy(rawValue:)`,
/// `SchedulerDispatch(rawValue:)`), so the harness and the core cannot disagree on what a
/// name means; the registry holds each name's axis and description.
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

    /// The observe(on:) strategy this name selects, if it names one.
    package var observeOnStrategy: ObserveOnStrategy? { ObserveOnStrategy(name: rawValue) }

    /// The periodic policy this name selects, if it names one.
    package var periodicPolicy: PeriodicPolicy? { PeriodicPolicy(rawValue: rawValue) }

    /// The dispatch (`SchedulerDispatch`) this name selects on the dispatch-queue schedulers
    /// (main, serial, concurrent), if it names one. RxSwift's observe(on:) algorithms
    /// (`reference`, `referenceGeneric`) select RxSwift's dispatch, one block per action, so
    /// that they are RxSwift end to end.
    package var dispatch: SchedulerDispatch? {
        self == .reference || self == .referenceGeneric ? .perAction : SchedulerDispatch(rawValue: rawValue)
    }

    /// What a name selects: each name belongs to exactly one axis of a case.
    package enum Axis: String, Sendable, CaseIterable {
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

    /// The name a case of `workload` on `scheduler` has today, given the name an older
    /// build wrote for it (results files and histories keep older names): before dispatch
    /// was an axis of `schedule.throughput` on the serial and concurrent schedulers, their
    /// cases ran the default dispatch, `perAction`, under `none`.
    package static func current(_ written: StrategyName, workload: WorkloadName, scheduler: SchedulerName) -> StrategyName {
        if written == .none, workload == .scheduleThroughput, scheduler == .serial || scheduler == .concurrent { return .perAction }
        return written
    }

    /// `observeOnStrategy`, or an error naming the workload that needs one.
    package func requireObserveOnStrategy(for workload: WorkloadName) throws -> ObserveOnStrategy {
        guard let strategy = observeOnStrategy else {
            throw BenchError.caseCannotRun("\(workload.rawValue) needs an observe(on:) strategy, not '\(rawValue)'")
        }
        return strategy
    }
}
