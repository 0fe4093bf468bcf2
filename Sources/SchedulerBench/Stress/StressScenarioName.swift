import RxSchedulers

/// The stress scenarios, by their stable names (`schedbench stress --scenario`,
/// `stress.csv`). Each states a property of the core and checks it on every iteration.
public enum StressScenarioName: String, Codable, Sendable, CaseIterable, Comparable {
    case mpscSpec = "mpsc.spec"
    case observeOnDispose = "observeOn.dispose"
    case observeOnStop = "observeOn.stop"
    case subscribeStorm = "subscribe.storm"
    case mainCounting = "main.counting"
    case periodicStall = "periodic.stall"
    case trampolineTree = "trampoline.tree"
    case batchedSpec = "batched.spec"

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// One line for `schedbench list`.
    public var summary: String {
        switch self {
        case .mpscSpec:
            return "MPSCQueue: random producers and pauses, history checked against a FIFO spec (per-producer order, no loss or duplicate)"
        case .batchedSpec:
            return
                "batched dispatch: random producers, handles disposed at once, from another thread or never: order, no loss, results disposed once and released"
        case .observeOnDispose:
            return "observe(on:) × scheduler × strategy, disposed inside the observer, from a block on its scheduler, or from another thread"
        case .observeOnStop:
            return "observe(on:): error/completed racing next from concurrent producers: one stop event, last, no overlap"
        case .subscribeStorm:
            return "threads subscribe and dispose random pipelines at once: no crash, no leak, grammar and serialization kept"
        case .mainCounting:
            return "MainScheduler from main-thread callers and background floods: FIFO per caller, no re-entrancy, pendingCount back to 0"
        case .periodicStall:
            return "interval with random stalls, every policy × scheduler: catchUp loses no tick, fixedRate keeps its grid, none early"
        case .trampolineTree:
            return "random nested schedule trees (with disposals) on CurrentThreadScheduler against a model of RxSwift's trampoline"
        }
    }

    /// The violation kinds the scenario checks; `stress.csv` has a row for each, zeros included.
    public var checks: [ViolationKind] {
        switch self {
        case .mpscSpec: return [.lost, .duplicate, .reorder, .hang, .crash]
        case .batchedSpec: return [.lost, .duplicate, .reorder, .afterDispose, .leak, .hang, .crash]
        case .observeOnDispose: return [.lost, .duplicate, .reorder, .afterDispose, .overlap, .grammar, .leak, .hang, .crash]
        case .observeOnStop: return [.lost, .reorder, .overlap, .grammar, .leak, .hang, .crash]
        case .subscribeStorm: return [.overlap, .grammar, .leak, .hang, .crash]
        case .mainCounting: return [.lost, .reorder, .reentrant, .leak, .hang, .crash]
        case .periodicStall: return [.lost, .duplicate, .reorder, .lostTick, .extraTick, .leak, .hang, .crash]
        case .trampolineTree: return [.lost, .duplicate, .reorder, .afterDispose, .hang, .crash]
        }
    }

    /// The seeded bugs (`SeededBug`) this scenario is meant to catch: the catalogue's map.
    public var catches: [SeededBug] {
        switch self {
        case .mpscSpec: return [.queueBoundaryDuplicate, .queueBoundaryHang]
        case .batchedSpec: return [.batchIgnoresHandles, .batchLostWakeup]
        case .observeOnDispose: return [.drainLateDisposeCheck]
        case .observeOnStop: return [.drainLostWakeup, .drainDeliversPastStop]
        case .subscribeStorm: return [.mergeUnserialized, .serialDisposableLeak]
        case .mainCounting: return [.mainReentrant, .mainJumpsQueue, .batchLostWakeup]
        case .periodicStall: return [.catchUpMergesTicks]
        case .trampolineTree: return [.trampolineRunsDisposed, .trampolineReusesHeldSlot]
        }
    }

    /// A new instance of the scenario.
    func make() -> any StressScenario {
        switch self {
        case .mpscSpec: return MPSCSpecScenario()
        case .batchedSpec: return BatchedSpecScenario()
        case .observeOnDispose: return ObserveOnDisposeScenario()
        case .observeOnStop: return ObserveOnStopScenario()
        case .subscribeStorm: return SubscribeStormScenario()
        case .mainCounting: return MainCountingScenario()
        case .periodicStall: return PeriodicStallScenario()
        case .trampolineTree: return TrampolineTreeScenario()
        }
    }
}
