import Benchmark
import Dispatch
import Foundation
import RxSchedulers
import Synchronization

/// Runs `body` on the main queue (drained by the benchmark process) and waits for it.
func onMainQueue<Result>(_ body: () -> Result) -> Result {
    DispatchQueue.main.sync(execute: body)
}

/// Counts delivered events and signals when the expected number has arrived.
///
/// Not generic on purpose: a generic observer class's `on` runs unspecialized when the
/// subscription calls it through its type-erased downstream (generic metadata for every
/// copy of the event), which added about 25 ns per event to the `drain` hand-offs and
/// would be counted as hand-off cost.
final class CountingObserver: ObserverType, @unchecked Sendable {
    typealias Element = Int

    private var count = 0
    private var expected = Int.max
    private let done = DispatchSemaphore(value: 0)

    /// Expect `count` more events; call before sending them.
    func expect(_ count: Int) {
        self.count = 0
        self.expected = count
    }

    func on(_ event: Event<Element>) {
        guard case .next = event else { return }
        count += 1
        if count == expected { done.signal() }
    }

    func wait() { done.wait() }
}

/// Signals once `tick()` has been called `count` times, from any threads (one atomic
/// decrement per tick, the same in every benchmark that uses it).
final class Countdown: @unchecked Sendable {
    private let remaining: Atomic<Int>
    private let done = DispatchSemaphore(value: 0)

    init(_ count: Int) { remaining = Atomic(count) }

    func tick() {
        if remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() }
    }

    func wait() { done.wait() }
}

/// Schedules `count` actions on `scheduler`, each ticking a countdown, and waits until
/// all have run. Generic, so that a concrete scheduler type is called with code
/// specialized for it, and an existential through its witness table (as operators do).
func scheduleAndWait<Scheduler: ImmediateSchedulerType>(_ count: Int, on scheduler: Scheduler) {
    let countdown = Countdown(count)
    for _ in 0..<count {
        _ = scheduler.schedule(countdown) { countdown in
            countdown.tick()
            return Disposables.create()
        }
    }
    countdown.wait()
}

/// Runs `producers` threads, each calling `body(producerIndex)`, and waits for all.
func runProducers(_ producers: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<producers {
        group.enter()
        Thread.detachNewThread {
            body(index)
            group.leave()
        }
    }
    group.wait()
}

/// The schedulers benchmarks compare, by their harness names and built as the harness
/// builds them (`SchedulerName.make` in SchedulerBench): `operationQueue` is a plain
/// `OperationQueue()`, of the default (concurrent) width, as RxSwift users create it.
func namedSchedulers() -> [(String, ImmediateSchedulerType)] {
    let operationQueue = OperationQueue()
    return [
        ("serial", SerialDispatchQueueScheduler(internalSerialQueueName: "bench.serial")),
        ("concurrent", ConcurrentDispatchQueueScheduler(qos: .userInitiated)),
        ("operationQueue", OperationQueueScheduler(operationQueue: operationQueue)),
        ("mainAsync", MainScheduler.asyncInstance),
    ]
}

/// A million events per iteration, with the default metrics.
private func millionPerIteration(maxDuration: Duration, maxIterations: Int) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: Benchmark.defaultConfiguration.metrics,
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: maxDuration,
        maxIterations: maxIterations
    )
}

/// For hand-off benchmarks (dispatch, threads): a million events per iteration, so
/// thread wake-ups and creation are amortised as in a real stream, and fewer iterations.
let handoffConfiguration = millionPerIteration(maxDuration: .seconds(10), maxIterations: 5)

/// For the inline MainScheduler calls: a million calls per iteration, so the clock and
/// statistics reads around each one are negligible against calls of about 10 ns.
let inlineConfiguration = millionPerIteration(maxDuration: .seconds(2), maxIterations: 20)
