import RxSchedulers

/// Which algorithm a case uses where the core offers more than one. Each name is the core's
/// own stable name for that algorithm, looked up through the core (`ObserveOnStrategy(name:)`,
/// `PeriodicPolicy(rawValue:)`, `SchedulerDispatch(rawValue:)`), so the harness and
/// the core cannot disagree on what a name means.
package enum StrategyName: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable, DeclarationOrdered {
    /// observe(on:) strategies (`ObserveOnStrategy`).
    case reference, referenceGeneric, drain
    /// Periodic policies (`PeriodicPolicy`).
    case catchUp, coalesce, fixedRate, rxRecursive
    /// Dispatch on the dispatch-queue schedulers (`SchedulerDispatch`).
    case batched, perAction
    /// Context baselines: raw `DispatchQueue.async` per event, and an `AsyncStream` consumed by a Task.
    case gcd, asyncStream
    /// Peer frameworks: OpenCombine's `receive(on:)`, an actor hop per event, and
    /// swift-async-algorithms' back-pressured `AsyncChannel`.
    case openCombine, actor, asyncChannel
    /// The workload has a single algorithm.
    case none

    /// One line for `schedbench list`.
    package var summary: String {
        switch self {
        case .reference:
            return
                "observe(on:) as RxSwift does it: per-event blocks on serial dispatch queues, lock + queue + recursive schedule elsewhere; on main with per-action dispatch"
        case .referenceGeneric:
            return "observe(on:) with RxSwift's generic algorithm (lock + queue + recursive schedule) on serial dispatch schedulers too"
        case .drain: return "observe(on:) tuned: lock-free MPSC queue + work-in-progress drain, bounded batches (default)"
        case .catchUp: return "every missed tick replayed once, in order, as soon as possible (default)"
        case .coalesce: return "a repeating dispatch timer that merges missed ticks (RxSwift on dispatch queues)"
        case .fixedRate: return "tick n due at start + n·period; overruns run at once; a far-behind schedule is rebased"
        case .rxRecursive:
            return
                "RxSwift's SchedulePeriodicRecursive on any scheduler: ticks counted by recursive schedules on the scheduler itself, owed ones replayed"
        case .batched: return "queued actions drained 64 per queue block (MainScheduler's default; serial and concurrent take it too)"
        case .perAction: return "one queue block per action (RxSwift; the serial and concurrent schedulers' default)"
        case .gcd: return "raw DispatchQueue.async per event to a serial queue"
        case .asyncStream: return "an unbounded AsyncStream read by one Task"
        case .openCombine: return "OpenCombine 0.14 PassthroughSubject.receive(on: a serial DispatchQueue).sink"
        case .actor: return "each event hopped onto an actor in its own Task (enqueued in order), the actor calls the observer"
        case .asyncChannel: return "swift-async-algorithms 1.1 AsyncChannel (back-pressured send), read by one Task"
        case .none: return "the workload has a single algorithm"
        }
    }

    /// The observe(on:) strategy this name selects, if it names one.
    package var observeOnStrategy: ObserveOnStrategy? { ObserveOnStrategy(name: rawValue) }

    /// The periodic policy this name selects, if it names one.
    package var periodicPolicy: PeriodicPolicy? { PeriodicPolicy(rawValue: rawValue) }

    /// The dispatch (`SchedulerDispatch`) this name selects on the dispatch-queue schedulers
    /// (main, serial, concurrent), if it names one. RxSwift's observe(on:) algorithms
    /// (`reference`, `referenceGeneric`) select RxSwift's dispatch, one block per action, so
    /// that they are RxSwift end to end.
    package var dispatch: SchedulerDispatch? {
        switch self {
        case .reference, .referenceGeneric: return .perAction
        default: return SchedulerDispatch(rawValue: rawValue)
        }
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
        /// Another framework's hand-off (OpenCombine, an actor, swift-async-algorithms).
        case peer
        /// The workload has a single algorithm.
        case none
    }

    /// The axis this name belongs to.
    package var axis: Axis {
        switch self {
        case .reference, .referenceGeneric, .drain: return .observeOn
        case .batched, .perAction: return .dispatch
        case .catchUp, .coalesce, .fixedRate, .rxRecursive: return .periodic
        case .gcd, .asyncStream: return .baseline
        case .openCombine, .actor, .asyncChannel: return .peer
        case .none: return .none
        }
    }

    /// The name a case of `workload` on `scheduler` has today, given the name an older
    /// build wrote for it (results files and histories keep older names): before dispatch
    /// was an axis of `schedule.throughput` on the serial and concurrent schedulers, their
    /// cases ran the default dispatch, `perAction`, under `none`.
    package static func current(_ written: StrategyName, workload: WorkloadName, scheduler: SchedulerName) -> StrategyName {
        if written == .none, workload == .scheduleThroughput, scheduler == .serial || scheduler == .concurrent { return .perAction }
        return written
    }

    /// The observe(on:) strategies a workload offers on `scheduler`: `referenceGeneric`
    /// only where it differs from `reference`, on the serial dispatch schedulers.
    package static func observeOnStrategies(on scheduler: SchedulerName) -> [StrategyName] {
        scheduler.isSerialDispatch ? [.reference, .referenceGeneric, .drain] : [.reference, .drain]
    }

    /// `observeOnStrategy`, or an error naming the workload that needs one.
    package func requireObserveOnStrategy(for workload: WorkloadName) throws -> ObserveOnStrategy {
        guard let strategy = observeOnStrategy else {
            throw BenchError.caseCannotRun("\(workload.rawValue) needs an observe(on:) strategy, not '\(rawValue)'")
        }
        return strategy
    }
}
