import BenchModel
import Foundation
import RxSchedulers

/// `main.counting`: `MainScheduler` under main-thread callers and background floods.
///
/// Each iteration uses the shared `MainScheduler.instance` and a private instance (batched
/// or per-action dispatch). Main-thread callers (blocks on the main queue) schedule runs of
/// actions; some actions schedule a nested action on the same scheduler; 1–3 background
/// threads flood both schedulers meanwhile. Checked:
/// - FIFO: each caller's actions run in the order it scheduled them, nested actions in the
///   order they were scheduled, a main-thread call never runs inline ahead of actions
///   already enqueued, and an action a background caller scheduled before handing over to
///   the main queue runs before what the main queue then schedules (`reorder`);
/// - no re-entrancy: an action never starts while another action of the same scheduler is
///   running (`reentrant`);
/// - every action runs (`lost` when none has run for 2 s short of all) and `pendingCount`
///   returns to 0 (`leak`).
///
/// Outcomes: how many main-thread schedules ran inline and how many were enqueued (the
/// inline share).
final class MainCountingScenario: CataloguedStressScenario {
    static let name = StressScenarioName.mainCounting
    static let summary =
        "MainScheduler from main-thread callers and background floods: FIFO per caller, no re-entrancy, pendingCount back to 0"
    static let checks: [ViolationKind] = [.lost, .reorder, .reentrant, .leak, .hang, .crash]

    func run(_ iteration: StressIteration) {
        var random = iteration.random
        let privateScheduler = MainScheduler(dispatch: random.pick(MainScheduler.Dispatch.allCases))
        // Called from every scenario thread (Workload: the core's types and Sendable).
        nonisolated(unsafe) let schedulers = [MainScheduler.instance, privateScheduler]
        let mainCallers = Int.random(in: 1...3, using: &random)
        let backgroundCallers = Int.random(in: 0...3, using: &random)
        let perCaller = Int.random(in: 1...300, using: &random)
        let nestedChance = random.pick([0.0, 0.1, 0.5])
        let ledger = Ledger(schedulers: schedulers.count, callers: mainCallers + backgroundCallers, iteration: iteration)
        var expected = (mainCallers + backgroundCallers) * perCaller * schedulers.count

        // Decisions for the main-thread callers are made here, so they replay.
        let plans: [[(scheduler: Int, nests: Bool)]] = (0..<mainCallers).map { _ in
            (0..<(perCaller * schedulers.count)).map { _ in (Int(random.next() % 2), random.chance(nestedChance)) }
        }
        expected += plans.joined().filter(\.nests).count
        let mainDone = DispatchSemaphore(value: 0)
        // Steps the main-thread callers have taken: their waits judge progress, not time.
        let mainSteps = SharedCounter()
        for caller in 0..<mainCallers {
            MainQueue.async {
                var sequences = [0, 0]
                for step in plans[caller] {
                    let schedulerIndex = step.scheduler
                    let scheduler = schedulers[schedulerIndex]
                    let sequence = sequences[schedulerIndex]
                    sequences[schedulerIndex] += 1
                    // Nothing enqueued can run meanwhile: this block holds the main queue.
                    let pendingBefore = scheduler.pendingCount
                    ledger.scheduling = true
                    ledger.ranInline = false
                    _ = scheduler.schedule(()) { _ in
                        ledger.run(schedulerIndex, caller: caller, sequence: sequence) {
                            guard step.nests else { return }
                            let nested = ledger.nextNested(schedulerIndex)
                            _ = scheduler.schedule(()) { _ in
                                ledger.run(schedulerIndex, caller: Ledger.nestedCaller, sequence: nested) {}
                                return Disposables.create()
                            }
                        }
                        return Disposables.create()
                    }
                    ledger.scheduling = false
                    if ledger.ranInline && pendingBefore > 0 {
                        iteration.violation(
                            .reorder,
                            "scheduler \(schedulerIndex): caller \(caller)'s action \(sequence) ran inline ahead of \(pendingBefore) enqueued actions"
                        )
                    }
                    iteration.outcome(ledger.ranInline ? "main thread: ran inline" : "main thread: enqueued")
                    mainSteps.increment()
                }
                mainDone.signal()
            }
        }
        if backgroundCallers > 0 {
            iteration.concurrently(backgroundCallers, name: "main.flood") { thread, random in
                let caller = mainCallers + thread
                var sequences = [0, 0]
                for _ in 0..<(perCaller * schedulers.count) {
                    let schedulerIndex = Int(random.next() % 2)
                    let sequence = sequences[schedulerIndex]
                    sequences[schedulerIndex] += 1
                    _ = schedulers[schedulerIndex].schedule(()) { _ in
                        ledger.run(schedulerIndex, caller: caller, sequence: sequence) {}
                        return Disposables.create()
                    }
                    if random.chance(1.0 / 8) {
                        // A hand-over: once `schedule` has returned, what the main queue
                        // schedules next on the same scheduler must run after this action.
                        ledger.handOver()
                        MainQueue.async {
                            let order = ledger.nextHandOver(schedulerIndex)
                            _ = schedulers[schedulerIndex].schedule(()) { _ in
                                if !ledger.hasRun(schedulerIndex, caller: caller, sequence: sequence) {
                                    iteration.violation(
                                        .reorder,
                                        "scheduler \(schedulerIndex): a main-queue action ran before background caller \(caller)'s action \(sequence), whose schedule had returned before the main queue scheduled it"
                                    )
                                }
                                ledger.run(schedulerIndex, caller: Ledger.handOverCaller, sequence: order) {}
                                return Disposables.create()
                            }
                        }
                    }
                    if random.chance(1.0 / 64) {
                        iteration.beat()
                        sched_yield()
                    }
                }
            }
        }
        for _ in 0..<mainCallers {
            // The main queue runs as fast as this loaded process lets it: a caller's block is
            // lost only when neither it nor the actions it queued move for 2 s.
            if let expiry = iteration.wait(mainDone, quietFor: 2, progress: { mainSteps.load() + ledger.ran }) {
                let how = expiry == .noProgress ? "no step or action ran for 2 s" : "still running \(Int(ProgressDeadline.defaultCapSeconds)) s on"
                iteration.violation(.lost, "a main-thread caller's block did not finish (\(how); is the main queue running?)")
                return
            }
        }
        // The background callers have finished: every hand-over is posted.
        expected += ledger.handOvers
        iteration.countOperations(expected)
        if let expiry = iteration.wait(quietFor: 2, progress: { ledger.ran }, until: { ledger.ran >= expected }) {
            let how = expiry == .noProgress ? "none for 2 s" : "still running \(Int(ProgressDeadline.defaultCapSeconds)) s on"
            iteration.violation(.lost, "\(ledger.ran) of \(expected) actions ran (\(how))")
        }
        let pending = { privateScheduler.pendingCount + MainScheduler.instance.pendingCount }
        if iteration.wait(quietFor: 2, progress: { -pending() }, until: { pending() == 0 }) != nil {
            iteration.violation(
                .leak,
                "pendingCount \(privateScheduler.pendingCount) (private), \(MainScheduler.instance.pendingCount) (shared), unchanged for 2 s after every action ran")
        }
    }

    /// What ran, checked as it runs (on the main queue; the lock is for the readers).
    private final class Ledger: @unchecked Sendable {
        static let nestedCaller = -1
        /// The caller of the actions the main queue schedules after a hand-over.
        static let handOverCaller = -2
        private let lock = NSLock()
        private var depth: [Int]
        private var nextSequence: [[Int: Int]]
        private var nestedScheduled: [Int]
        private var handOversScheduled: [Int]
        private var handOversPosted = 0
        private var count = 0
        private let iteration: StressIteration
        /// Main thread only: inside a main-thread caller's `schedule` call.
        var scheduling = false
        var ranInline = false

        init(schedulers: Int, callers: Int, iteration: StressIteration) {
            depth = [Int](repeating: 0, count: schedulers)
            nextSequence = [[Int: Int]](repeating: [:], count: schedulers)
            nestedScheduled = [Int](repeating: 0, count: schedulers)
            handOversScheduled = [Int](repeating: 0, count: schedulers)
            self.iteration = iteration
        }

        var ran: Int { lock.withLock { count } }

        /// Hand-overs posted to the main queue so far (each schedules one action).
        var handOvers: Int { lock.withLock { handOversPosted } }

        func handOver() { lock.withLock { handOversPosted += 1 } }

        /// The order of a hand-over's action among those of `scheduler`, taken on the main
        /// queue as it schedules, so they must run in that order.
        func nextHandOver(_ scheduler: Int) -> Int {
            lock.withLock {
                defer { handOversScheduled[scheduler] += 1 }
                return handOversScheduled[scheduler]
            }
        }

        /// Whether `caller`'s action `sequence` on `scheduler` has run.
        func hasRun(_ scheduler: Int, caller: Int, sequence: Int) -> Bool {
            lock.withLock { nextSequence[scheduler][caller, default: 0] > sequence }
        }

        func nextNested(_ scheduler: Int) -> Int {
            lock.withLock {
                defer { nestedScheduled[scheduler] += 1 }
                return nestedScheduled[scheduler]
            }
        }

        func run(_ scheduler: Int, caller: Int, sequence: Int, _ body: () -> Void) {
            if scheduling { ranInline = true }
            let outer = lock.withLock { () -> Int in
                let outer = depth[scheduler]
                depth[scheduler] += 1
                let expected = nextSequence[scheduler][caller, default: 0]
                if sequence != expected {
                    let who =
                        caller == Self.nestedCaller ? "nested actions" : caller == Self.handOverCaller ? "hand-over" : "caller \(caller)"
                    iteration.violation(.reorder, "scheduler \(scheduler): \(who)'s action \(sequence) ran when \(expected) was next")
                }
                nextSequence[scheduler][caller] = max(expected, sequence + 1)
                return outer
            }
            if outer > 0 { iteration.violation(.reentrant, "scheduler \(scheduler): an action started inside another of its actions") }
            let wasScheduling = scheduling
            scheduling = false
            body()
            scheduling = wasScheduling
            lock.withLock {
                depth[scheduler] -= 1
                count += 1
            }
        }
    }
}
