import BenchModel
import Foundation
import RxSchedulers
import Synchronization

/// `observeOn.latency`: one producer thread paced at `rate_hz` sends N stamped events
/// through a subject and `observe(on:strategy:)`; the observer records each hop's latency
/// from the event's *intended* send time (open loop, so a stall is not hidden).
///
/// After the N-th event the observer disposes its own subscription — on the observing
/// scheduler — and the producer sends a burst of further events: any of them delivered
/// after dispose returned is a violation. On the serial dispatch schedulers every other
/// trial instead disposes from a separate block queued on the observing queue behind the
/// N-th event (RxSwift's guarantee holds there too: nothing after dispose returns, when it
/// runs on the observing serial queue); elsewhere a separate block could run beside a
/// delivery, so there is nothing to check. On scheduler `none` a peer framework's hand-off
/// carries the events (`HandOff`), and the observer cancels it the framework's own way.
struct ObserveOnLatency: Workload {
    let name = WorkloadName.observeOnLatency
    let summary = "one producer paced at rate_hz; hop latency percentiles (open loop, HdrHistogram); dispose mid-stream"
    let unsupportedReason = "needs a scheduler that hands events to another thread or queue"
    let axes: Set<Axis> = [.rate, .payload]
    let defaultEvents = 20_000
    let defaultRateHz = 20_000
    /// Events sent after the observer disposed, to catch late deliveries.
    static let tailEvents = 1_000
    /// Counts trials in this process, to alternate where the observer disposes.
    private static let trials = Atomic<Int>(0)

    init() {}

    let runsHandOffs = true

    /// Every registered scheduler that hands events to another thread or queue, with the
    /// observe(on:) strategies.
    func strategies(on scheduler: RegisteredScheduler) -> [StrategyName] {
        scheduler.isVirtualTime || scheduler.runsOnCallingThread ? [] : Registry.observeOnStrategies(on: scheduler)
    }

    func runTrial(_ benchCase: BenchCase, invariants: InvariantReport, checking: Bool) throws -> TrialOutcome {
        guard benchCase.rateHz > 0 else { throw BenchError.caseCannotRun("observeOn.latency needs a rate above 0 Hz") }
        let events = benchCase.events
        let interval = 1_000_000_000 / UInt64(benchCase.rateHz)
        let consumer = ItemConsumer(expectedCounts: [events], invariants: invariants, checking: checking, recordsLatency: true)
        let timeout = trialTimeout(events: events, nanosPerEvent: Double(interval) * 2)
        let payload = benchCase.payloadBytes
        let lastArrived = DispatchSemaphore(value: 0)
        let finishedAt = Atomic<UInt64>(0)

        // Event i is due at start + i·interval, whatever happened before; the tail is unpaced.
        let paceStart = Atomic<UInt64>(0)
        @Sendable func pacedItem(_ sequence: Int) -> Item {
            if sequence == 0 { paceStart.store(MonotonicClock.now(), ordering: .relaxed) }
            guard sequence < events else { return Item(producer: 0, sequence: sequence, payloadBytes: payload) }
            let due = paceStart.load(ordering: .relaxed) + UInt64(sequence) * interval
            PacedWait.wait(until: due)
            return Item(producer: 0, sequence: sequence, stamp: due, payloadBytes: payload)
        }
        func pace(_ send: @escaping (Item) -> Void) throws -> ProducerThreads {
            // A subject's `on`, called from the one paced thread (Workload: the core's types and Sendable).
            nonisolated(unsafe) let send = send
            return try ProducerThreads(count: 1, name: "schedbench.paced") { _ in
                for sequence in 0..<(events + Self.tailEvents) { send(pacedItem(sequence)) }
            }
        }

        let cancel = CancelTarget()
        let handOff = try Registry.current.startHandOff(benchCase.strategy) { item in
            consumer.consume(item)
            if item.sequence == events - 1 {
                finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                cancel.handOff?.cancel()
                consumer.disposed()
                lastArrived.signal()
            }
        }
        if let handOff {
            cancel.handOff = handOff  // before the producer starts (thread start orders it)
            let producer = try ProducerThreads(count: 1, name: "schedbench.paced") { _ in
                handOff.produce(count: events + Self.tailEvents, item: pacedItem)
            }
            let start = producer.start()
            _ = lastArrived.wait(seconds: timeout, orReport: invariants, "\(consumer.delivered) of \(events) events delivered")
            if !producer.join(timeout: timeout) || !handOff.finish(timeout: timeout) {
                invariants.record("the tail sent after cancel() did not drain within \(Int(timeout)) s")
            }
            consumer.finish()
            return TrialOutcome(elapsedNanos: max(finishedAt.load(ordering: .relaxed), start) - start, operations: events, latency: consumer.latency)
        }

        let registered = try Registry.current.requireScheduler(benchCase.scheduler)
        let target = registered.instance(strategy: benchCase.strategy)
        let strategy = try benchCase.strategy.requireObserveOnStrategy(for: name)
        let subject = PublishSubject<Item>()
        let subscription = SingleAssignmentDisposable()
        let disposeInSeparateBlock = registered.isSerialDispatch && Self.trials.add(1, ordering: .relaxed).oldValue % 2 == 1
        // Runs once, on the scheduler or the main queue (Workload: the core's types and Sendable).
        nonisolated(unsafe) let disposeNow = {
            subscription.dispose()
            consumer.disposed()
            lastArrived.signal()
        }
        subscription.setDisposable(
            subject
                .observe(on: target, strategy: strategy)
                .subscribe(onNext: { item in
                    guard item.sequence < events else { return consumer.tail(item) }
                    consumer.consume(item)
                    guard item.sequence == events - 1 else { return }
                    finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                    if !disposeInSeparateBlock {
                        disposeNow()
                    } else if benchCase.scheduler == .main || benchCase.scheduler == .mainShared {
                        // MainScheduler would run it inline here, on main with nothing queued.
                        DispatchQueue.main.async { disposeNow() }
                    } else {
                        _ = target.schedule(()) { _ in
                            disposeNow()
                            return Disposables.create()
                        }
                    }
                })
        )
        let producer = try pace(subject.onNext)
        let start = producer.start()
        _ = lastArrived.wait(seconds: timeout, orReport: invariants, "\(consumer.delivered) of \(events) events delivered")
        _ = producer.join(timeout: timeout)
        subscription.dispose()
        consumer.finish()
        return TrialOutcome(elapsedNanos: max(finishedAt.load(ordering: .relaxed), start) - start, operations: events, latency: consumer.latency)
    }
}

/// The hand-off the observer cancels: made after the observer's closure, set before the
/// producer thread starts, read only by deliveries.
private final class CancelTarget: @unchecked Sendable {
    var handOff: (any HandOff)?
}
