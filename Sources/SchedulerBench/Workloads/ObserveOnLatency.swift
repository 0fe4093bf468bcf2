import Foundation
import RxSchedulers
import Synchronization

/// `observeOn.latency`: one producer thread paced at `rate_hz` sends N stamped events
/// through a subject and `observe(on:strategy:)`; the observer records each hop's latency
/// from the event's *intended* send time (open loop, so a stall is not hidden).
///
/// After the N-th event the observer disposes its own subscription — on the observing
/// scheduler — and the producer sends a burst of further events: any of them delivered
/// after dispose returned is a violation.
struct ObserveOnLatency: Workload {
    let name = WorkloadName.observeOnLatency
    let summary = "one producer paced at rate_hz; hop latency percentiles (open loop, HdrHistogram); dispose mid-stream"
    let schedulers: [SchedulerName] = [.main, .mainShared, .mainAsync, .serial, .concurrent, .concurrentMain, .operationQueue, .none]
    let unsupportedReason = "needs a scheduler that hands events to another thread or queue"
    let axes: Set<Axis> = [.rate, .payload]
    let defaultEvents = 20_000
    let defaultRateHz = 20_000
    /// Events sent after the observer disposed, to catch late deliveries.
    static let tailEvents = 1_000

    init() {}

    func strategies(on scheduler: SchedulerName) -> [StrategyName] {
        scheduler == .none ? [.gcd, .asyncStream] : StrategyName.observeOnStrategies(on: scheduler)
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

        // Paces the producer: event i is due at start + i·interval, whatever happened before.
        func pace(_ send: @escaping (Item) -> Void) throws -> ProducerThreads {
            try ProducerThreads(count: 1, name: "schedbench.paced") { _ in
                let start = MonotonicClock.now()
                for sequence in 0..<events {
                    let due = start + UInt64(sequence) * interval
                    MonotonicClock.wait(until: due)
                    send(Item(producer: 0, sequence: sequence, stamp: due, payloadBytes: payload))
                }
                for sequence in events..<(events + Self.tailEvents) {
                    send(Item(producer: 0, sequence: sequence, payloadBytes: payload))
                }
            }
        }

        if benchCase.strategy.isBaseline {
            // No subscription to dispose: the tail is sent but not consumed.
            let channel = ContextBaseline.Channel(strategy: benchCase.strategy) { item in
                guard item.sequence < events else { return }
                consumer.consume(item)
                if item.sequence == events - 1 {
                    finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                    lastArrived.signal()
                }
            }
            let producer = try pace(channel.send)
            let start = producer.start()
            _ = lastArrived.wait(seconds: timeout, orReport: invariants, "\(consumer.delivered) of \(events) events delivered")
            _ = producer.join(timeout: timeout)
            _ = channel.drain(timeout: timeout)
            consumer.finish()
            return TrialOutcome(elapsedNanos: max(finishedAt.load(ordering: .relaxed), start) - start, operations: events, latency: consumer.latency)
        }

        let target = benchCase.scheduler.make(strategy: benchCase.strategy)
        let strategy = try benchCase.strategy.requireObserveOnStrategy(for: name)
        let subject = PublishSubject<Item>()
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(
            subject
                .observe(on: target, strategy: strategy)
                .subscribe(onNext: { item in
                    consumer.consume(item)
                    if item.sequence == events - 1 {
                        finishedAt.store(MonotonicClock.now(), ordering: .relaxed)
                        subscription.dispose()
                        consumer.disposed()
                        lastArrived.signal()
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
