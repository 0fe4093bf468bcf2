import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// The schedulers stress scenarios drive, each made fresh per iteration (so its queue and
/// counters start clean), with whether it runs one action at a time.
enum StressScheduler: String, CaseIterable {
    case serial
    case serialBatched
    case concurrent
    case concurrentBatched
    case main
    case mainPerAction
    case mainShared
    case operationQueue
    case operationQueueSerial

    /// Runs one action at a time, so a dispose made in a block on it cannot race a delivery.
    var isSerial: Bool {
        switch self {
        case .concurrent, .operationQueue: return false
        default: return true
        }
    }

    /// For periodic scenarios: the dispatch-based schedulers, which schedule in time.
    func makeTimed() -> any SchedulerType {
        make() as! any SchedulerType
    }

    func make() -> any ImmediateSchedulerType {
        switch self {
        case .serial: return SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "stress.serial")
        case .serialBatched:
            return SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "stress.serial.batched", dispatch: .batched)
        case .concurrent: return ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        case .concurrentBatched: return ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: .batched)
        case .main: return MainScheduler(dispatch: .batched)
        case .mainPerAction: return MainScheduler(dispatch: .perAction)
        case .mainShared: return MainScheduler.instance
        case .operationQueue, .operationQueueSerial:
            // OperationQueueScheduler schedules no timed work (as in RxSwift): not for periodic scenarios.
            let queue = OperationQueue()
            if self == .operationQueueSerial { queue.maxConcurrentOperationCount = 1 }
            return OperationQueueScheduler(operationQueue: queue)
        }
    }
}

/// A counter shared by a scenario's threads.
final class SharedCounter: Sendable {
    let value = Atomic<Int>(0)

    @discardableResult
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }

    func load() -> Int { value.load(ordering: .acquiring) }
}

/// A flag shared by a scenario's threads.
final class SharedFlag: Sendable {
    let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }

    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// Checks one observer's deliveries: one call at a time, `next`s per producer in sequence
/// (`producer << 32 | sequence`), nothing after the stop event, at most one stop event.
/// Thread-safe; the overlap test is two atomic operations per call.
///
/// In `exact` order an element that arrives ahead of an earlier one of its producer leaves
/// a gap, which is judged only when it can be: the skipped element arriving later is a
/// `reorder`; one still missing at `finish()` is `lost`.
final class DeliveryChecker: @unchecked Sendable {
    /// What per-producer order a pipeline promises.
    enum Order {
        /// Every element, in sequence.
        case exact
        /// A subsequence: elements may be dropped (throttle, a switch), never reordered.
        case increasing
        /// None checked (only serialization and grammar).
        case unchecked
    }

    private let order: Order
    private let inside = Atomic<Int>(0)
    private let lock = NSLock()
    private var next: [Int]
    /// Per producer, the elements below `next` that have not arrived (`exact` order only).
    private var skipped: [Set<Int>]
    private var deliveredCount = 0
    private var stops: [String] = []
    /// A jump further ahead than this is reported as lost at once rather than remembered.
    static let largestTrackedGap = 1 << 16
    let iteration: StressIteration

    init(producers: Int, iteration: StressIteration, order: Order = .exact) {
        self.order = order
        next = [Int](repeating: 0, count: producers)
        skipped = [Set<Int>](repeating: [], count: producers)
        self.iteration = iteration
    }

    /// Call at the start of each observer call.
    func enter() {
        if inside.wrappingAdd(1, ordering: .acquiring).oldValue != 0 {
            iteration.violation(.overlap, "observer called while another call to it was still running")
        }
    }

    func leave() { inside.wrappingSubtract(1, ordering: .releasing) }

    func check(_ event: Event<Int>) {
        lock.withLock {
            if let stop = stops.first {
                iteration.violation(.grammar, "\(Self.describe(event)) delivered after \(stop)")
            }
            switch event {
            case .next(let element):
                let producer = element >> 32
                let sequence = element & 0xFFFF_FFFF
                deliveredCount += 1
                guard producer < next.count, order != .unchecked else { return }
                if sequence == next[producer] || (order == .increasing && sequence > next[producer]) {
                    next[producer] = sequence + 1
                } else if sequence > next[producer] {
                    if sequence - next[producer] > Self.largestTrackedGap {
                        iteration.violation(.lost, "producer \(producer)'s \(sequence) delivered after its \(next[producer] - 1): \(sequence - next[producer]) skipped")
                    } else {
                        skipped[producer].formUnion(next[producer]..<sequence)
                    }
                    next[producer] = sequence + 1
                } else {
                    // Below `next`: late if it was skipped; in exact order, otherwise delivered
                    // before. In increasing order only the one just delivered is known to be.
                    let late = skipped[producer].remove(sequence) != nil
                    let repeated = !late && (order == .exact || sequence == next[producer] - 1)
                    iteration.violation(repeated ? .duplicate : .reorder, "producer \(producer)'s \(sequence) after its \(next[producer] - 1)")
                }
            case .error, .completed:
                stops.append(Self.describe(event))
            }
        }
    }

    /// An observer that checks every event (one call at a time) and signals `stopped` at
    /// the stop event.
    func observer(signallingStopOn stopped: DispatchSemaphore) -> AnyObserver<Int> {
        AnyObserver { event in
            self.enter()
            defer { self.leave() }
            self.check(event)
            if event.isStopEvent { stopped.signal() }
        }
    }

    /// Records each producer's elements that were skipped and have still not arrived as
    /// `lost`. Call once the iteration has stopped waiting for deliveries.
    func finish(_ label: String) {
        lock.withLock {
            for (producer, missing) in skipped.enumerated() where !missing.isEmpty {
                let first = missing.min()!
                let others = missing.count > 1 ? " (and \(missing.count - 1) more)" : ""
                iteration.violation(.lost, "\(label): producer \(producer)'s \(first)\(others) never delivered, though its \(next[producer] - 1) was")
            }
            skipped = skipped.map { _ in [] }
        }
    }

    /// `next` events delivered so far.
    var delivered: Int { lock.withLock { deliveredCount } }
    /// Per producer, the elements in sequence so far, less those skipped and not arrived.
    var deliveredPerProducer: [Int] { lock.withLock { zip(next, skipped).map { $0 - $1.count } } }
    var stopCount: Int { lock.withLock { stops.count } }
    var firstStop: String? { lock.withLock { stops.first } }
    var allStops: [String] { lock.withLock { stops } }

    static func describe(_ event: Event<Int>) -> String {
        switch event {
        case .next(let element): return "next(\(element >> 32):\(element & 0xFFFF_FFFF))"
        case .error: return "error"
        case .completed: return "completed"
        }
    }
}

struct StressError: Error {}
