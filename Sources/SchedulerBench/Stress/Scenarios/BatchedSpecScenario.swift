import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `batched.spec`: `schedule` on a dispatch scheduler against the contract of a scheduled
/// action and its disposable, in every dispatch mode: `SchedulerDispatch.batched`, whose
/// actions and handles live in the slots of a lock-free chunked queue, and RxSwift's
/// `perAction`, one queue block per action (the name is older than the per-action modes).
///
/// Each iteration makes a fresh scheduler: serial or concurrent with batched dispatch, or
/// serial, concurrent or a private `MainScheduler` with per-action dispatch. 1–4
/// producer threads schedule 1–600 actions each (the queue's chunks hold 32), and one
/// disposer thread disposes handles the producers pass it, all while the drain runs. A
/// producer keeps some handles to the end without disposing them, disposes some at once
/// (racing the drain), passes some to the disposer and drops the rest; now and then it
/// holds the drain with an action of its own, schedules one more, disposes it and only
/// then lets the drain go (not on the concurrent per-action scheduler, which has no single
/// drain). Each action returns a result that counts how often it is disposed and when it is
/// released. Once an action scheduled after all of them has run (on the concurrent
/// per-action scheduler, which runs blocks at once and in no order: once every action that
/// must run has, and none has started for a while), checked:
/// - a producer's actions run in its order (`reorder`; not on the concurrent per-action
///   scheduler), each at most once (`duplicate`);
/// - an action whose handle was never disposed runs (`lost`); one disposed before the
///   drain could reach it does not (`after_dispose`). A dispose racing the drain may or
///   may not skip the action, as in RxSwift;
/// - a result is disposed exactly once when its handle was disposed and its action ran
///   (`leak` when never, `duplicate` when twice), and never when its handle was not
///   disposed (`duplicate`);
/// - every result is released once the handles and the scheduler are gone (`leak`);
/// - every `schedule` returns (`hang`, by the watchdog).
final class BatchedSpecScenario: CataloguedStressScenario {
    static let name = StressScenarioName.batchedSpec
    static let summary =
        "dispatch, batched and per-action, on serial, concurrent and main: random producers, handles disposed at once, from another thread or never: order, no loss, nothing run once disposed before its turn, results disposed once and released"
    static let checks: [ViolationKind] = [.lost, .duplicate, .reorder, .afterDispose, .leak, .hang, .crash]

    /// The schedulers under test, each with its dispatch.
    enum Target: CaseIterable {
        case serialBatched, concurrentBatched, serialPerAction, concurrentPerAction, mainPerAction

        func make() -> any ImmediateSchedulerType {
            switch self {
            case .serialBatched:
                return SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "stress.spec", dispatch: .batched)
            case .concurrentBatched: return ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: .batched)
            case .serialPerAction:
                return SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "stress.spec", dispatch: .perAction)
            case .concurrentPerAction: return ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: .perAction)
            case .mainPerAction: return MainScheduler(dispatch: .perAction)
            }
        }

        /// Whether actions run one at a time in the order scheduled (all but the concurrent
        /// queue's per-action blocks, which run at once).
        var isOrdered: Bool { self != .concurrentPerAction }
    }

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let kind = random.pick(Target.allCases)
        let ordered = kind.isOrdered
        let target = SchedulerBox(kind.make())
        let counts = (0..<random.pick([1, 2, 2, 3, 4])).map { _ in
            random.chance(0.3) ? Int.random(in: 1...40, using: &random) : Int.random(in: 100...600, using: &random)
        }
        let ledger = Ledger(counts: counts, ordered: ordered, label: "\(kind)", iteration: iteration)
        let handOff = HandOff()
        let kept = KeptHandles()
        let producers = counts.count

        iteration.concurrently(producers + 1, name: "batched") { thread, random in
            if thread == producers {
                handOff.disposeUntilClosed(producers: producers, &random, iteration)
                return
            }
            guard let scheduler = target.scheduler else { return }
            var keeping: [Disposable] = []
            for sequence in 0..<counts[thread] {
                let entry = ledger.entries[thread][sequence]
                let handle = scheduler.schedule(entry) { entry in
                    ledger.ran(entry)
                    return CountedResult(entry)
                }
                switch random.next() % 8 {
                case 0: keeping.append(handle)
                case 1: entry.dispose(handle)
                case 2, 3: handOff.pass(handle, entry)
                default: break
                }
                if ordered && random.chance(1.0 / 32) { Self.disposeBehindAGate(scheduler, ledger.gated(thread)) }
                if random.chance(1.0 / 64) { sched_yield() }
            }
            kept.add(keeping)
            handOff.producerFinished()
        }
        iteration.countOperations(counts.reduce(0, +))

        if ordered {
            let fence = DispatchSemaphore(value: 0)
            _ = target.scheduler?.schedule(()) { _ in
                fence.signal()
                return Disposables.create()
            }
            if let expiry = iteration.wait(fence, quietFor: 2, progress: { ledger.ranCount }) {
                iteration.violation(
                    .lost,
                    "\(kind): an action scheduled after all the others did not run ("
                        + (expiry == .noProgress ? "no action ran for 2 s" : "actions still running after 60 s") + ")")
                return
            }
        } else {
            // Blocks run at once, in no order: wait for every action that must run, and for
            // every action that ran with its handle disposed to have its result disposed
            // (the block that ran it may still be finishing).
            let mustRun = ledger.entries.joined().filter { !$0.disposed.isSet }
            if iteration.wait(quietFor: 2, progress: { ledger.ranCount }, until: { mustRun.allSatisfy { $0.runs.load() > 0 } }) != nil {
                let missing = mustRun.filter { $0.runs.load() == 0 }.count
                iteration.violation(.lost, "\(kind): \(missing) actions whose handles were never disposed did not run")
                return
            }
            let everything = Array(ledger.entries.joined())
            _ = iteration.wait(quietFor: 2, progress: { ledger.ranCount }) {
                everything.allSatisfy { $0.runs.load() == 0 || !$0.disposed.isSet || $0.disposals.load() > 0 }
            }
        }
        ledger.check()
        // Every result goes once nothing holds it: the handles, and the queue's last chunk,
        // which the scheduler keeps until it goes.
        kept.removeAll()
        target.scheduler = nil
        let ran = ledger.ranCount
        if iteration.wait(quietFor: 2, progress: { ledger.released.load() }, until: { ledger.released.load() == ran }) != nil {
            iteration.violation(
                .leak, "\(ledger.released.load()) of \(ran) results released, none more for 2 s after the handles and the scheduler were let go")
        }
    }

    /// Schedules an action that holds the drain, then `entry`'s action, disposes that, and
    /// only then lets the drain go: the drain cannot have reached the action before the
    /// `dispose()` returned, so it must skip it.
    private static func disposeBehindAGate(_ scheduler: any ImmediateSchedulerType, _ entry: Entry) {
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            gate.wait()
            return Disposables.create()
        }
        let handle = scheduler.schedule(entry) { entry in
            entry.runs.increment()
            return CountedResult(entry)
        }
        entry.dispose(handle)
        gate.signal()
    }

    /// The scheduler under test, let go of once checked.
    private final class SchedulerBox: @unchecked Sendable {
        var scheduler: (any ImmediateSchedulerType)?
        init(_ scheduler: any ImmediateSchedulerType) { self.scheduler = scheduler }
    }

    /// One scheduled action: what happened to it, to its handle and to its result.
    private final class Entry: Sendable {
        let producer: Int
        let sequence: Int
        let released: SharedCounter
        let runs = SharedCounter()
        let disposals = SharedCounter()
        /// Set before a `dispose()` of the handle.
        let disposed = SharedFlag()
        /// Whether the handle was disposed before the drain could reach the action, so that
        /// it must not run (`disposeBehindAGate`).
        let mustBeSkipped: Bool

        init(producer: Int, sequence: Int, released: SharedCounter, mustBeSkipped: Bool = false) {
            self.producer = producer
            self.sequence = sequence
            self.released = released
            self.mustBeSkipped = mustBeSkipped
        }

        func dispose(_ handle: Disposable) {
            disposed.set()
            handle.dispose()
        }
    }

    /// What an action returns: counts its disposals, and its release.
    private final class CountedResult: Disposable, Sendable {
        private let entry: Entry

        init(_ entry: Entry) { self.entry = entry }
        deinit { entry.released.increment() }
        func dispose() { entry.disposals.increment() }
    }

    /// The actions, and the checks made as they run (under a lock: the concurrent
    /// per-action scheduler runs them at once).
    private final class Ledger: @unchecked Sendable {
        let entries: [[Entry]]
        let released: SharedCounter
        /// Per producer, the actions it disposed behind a gate (each producer appends to its own).
        private var gatedEntries: [[Entry]]
        private let iteration: StressIteration
        /// Whether actions must run in each producer's order.
        private let ordered: Bool
        private let label: String
        private let lock = NSLock()
        private var lastRun: [Int]
        private var ranTotal = 0

        init(counts: [Int], ordered: Bool, label: String, iteration: StressIteration) {
            self.ordered = ordered
            self.label = label
            let released = SharedCounter()
            self.released = released
            entries = counts.enumerated().map { producer, count in
                (0..<count).map { Entry(producer: producer, sequence: $0, released: released) }
            }
            lastRun = counts.map { _ in -1 }
            gatedEntries = counts.map { _ in [] }
            self.iteration = iteration
        }

        var ranCount: Int { lock.withLock { ranTotal } }

        /// A new action for `producer` to dispose behind a gate.
        func gated(_ producer: Int) -> Entry {
            let entry = Entry(producer: producer, sequence: -1, released: released, mustBeSkipped: true)
            lock.withLock { gatedEntries[producer].append(entry) }
            return entry
        }

        func ran(_ entry: Entry) {
            entry.runs.increment()
            lock.withLock {
                ranTotal += 1
                if ordered && entry.sequence <= lastRun[entry.producer] {
                    iteration.violation(
                        .reorder, "\(label): producer \(entry.producer)'s action \(entry.sequence) ran after its action \(lastRun[entry.producer])")
                }
                lastRun[entry.producer] = max(lastRun[entry.producer], entry.sequence)
            }
        }

        /// Once everything scheduled ran or was skipped.
        func check() {
            for entry in lock.withLock({ gatedEntries.joined() }) where entry.runs.load() > 0 {
                iteration.violation(
                    .afterDispose, "producer \(entry.producer)'s action disposed before the drain could reach it ran")
            }
            for entry in entries.joined() {
                let runs = entry.runs.load()
                let disposed = entry.disposed.isSet
                let disposals = entry.disposals.load()
                let name = "producer \(entry.producer)'s action \(entry.sequence)"
                if runs > 1 { iteration.violation(.duplicate, "\(name) ran \(runs) times") }
                if runs == 0 && !disposed { iteration.violation(.lost, "\(name) never ran, and its handle was not disposed") }
                switch (runs > 0 && disposed, disposals) {
                case (true, 0): iteration.violation(.leak, "\(name) ran and its handle was disposed, but its result never was")
                case (true, 1), (false, 0): break
                case (true, _): iteration.violation(.duplicate, "\(name)'s result was disposed \(disposals) times")
                case (false, _): iteration.violation(.duplicate, "\(name)'s result was disposed though its handle was not")
                }
            }
        }
    }

    /// Handles the producers pass to the disposer thread.
    private final class HandOff: @unchecked Sendable {
        private let lock = NSLock()
        private var pending: [(Disposable, Entry)] = []
        private var finished = 0

        func pass(_ handle: Disposable, _ entry: Entry) {
            lock.withLock { pending.append((handle, entry)) }
        }

        func producerFinished() {
            lock.withLock { finished += 1 }
        }

        /// Disposes the passed handles in random order, with random pauses, until every
        /// producer has finished and none is left.
        func disposeUntilClosed(producers: Int, _ random: inout StressRandom, _ iteration: StressIteration) {
            while true {
                let draw = random.next()
                let (next, done) = lock.withLock { () -> ((Disposable, Entry)?, Bool) in
                    if pending.isEmpty { return (nil, finished == producers) }
                    return (pending.remove(at: Int(draw % UInt64(pending.count))), false)
                }
                if done { return }
                guard let (handle, entry) = next else {
                    sched_yield()
                    continue
                }
                entry.dispose(handle)
                iteration.beat()
                if random.chance(1.0 / 16) { sched_yield() }
            }
        }
    }

    /// Handles the producers keep, undisposed, until the checks are done.
    private final class KeptHandles: @unchecked Sendable {
        private let lock = NSLock()
        private var handles: [Disposable] = []

        func add(_ more: [Disposable]) { lock.withLock { handles += more } }
        func removeAll() { lock.withLock { handles.removeAll() } }
    }
}
