import Foundation
import RxSchedulers
import RxSchedulersTesting
import XCTest

/// Collects events on the observing scheduler and checks the observer contract.
private final class CheckingObserver: ObserverType, @unchecked Sendable {
    typealias Element = (producer: Int, sequence: Int)

    let detector = OverlapDetector()
    private let state = Locked((count: 0, lastPerProducer: [Int: Int](), violations: [String](), stops: 0))
    private let finished = DispatchSemaphore(value: 0)
    private let expected: Int

    init(expected: Int) {
        self.expected = expected
    }

    func on(_ event: Event<Element>) {
        detector.enter()
        defer { detector.leave() }
        state.withValue { state in
            if state.stops > 0 { state.violations.append("event after stop: \(event)") }
            switch event {
            case .next(let element):
                state.count += 1
                if let last = state.lastPerProducer[element.producer], last + 1 != element.sequence {
                    state.violations.append("producer \(element.producer): \(element.sequence) after \(last)")
                }
                state.lastPerProducer[element.producer] = element.sequence
            case .error, .completed:
                state.stops += 1
            }
        }
        if event.isStopEvent { finished.signal() }
    }

    func waitForStop(timeout: TimeInterval = 20) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }

    var count: Int { state.current.count }
    var violations: [String] { state.current.violations }
    var stops: Int { state.current.stops }
    var lastPerProducer: [Int: Int] { state.current.lastPerProducer }
}

/// A source that sends `count` numbered elements from the thread that subscribes it.
private func numbered(producer: Int, count: Int) -> Observable<(producer: Int, sequence: Int)> {
    Observable.create { observer in
        for sequence in 0..<count { observer.onNext((producer, sequence)) }
        observer.onCompleted()
        return Disposables.create()
    }
}

final class ObserveOnTests: RxTestCase {
    /// Every strategy, plus `drain` with a tiny batch so the yield path runs constantly.
    private let strategies: [ObserveOnStrategy] = ObserveOnStrategy.all + [.drain(batchSize: 3)]

    private func schedulers() -> [(String, ImmediateSchedulerType)] {
        let operationQueue = OperationQueue()
        operationQueue.maxConcurrentOperationCount = 4
        return [
            ("serial", SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on")),
            ("concurrent", ConcurrentDispatchQueueScheduler(qos: .userInitiated)),
            ("operationQueue", OperationQueueScheduler(operationQueue: operationQueue)),
        ]
    }

    func testDeliversInOrderSerializedAndCompletesOnce() {
        for strategy in strategies {
            for (schedulerName, scheduler) in schedulers() {
                let name = "\(schedulerName)/\(strategy)"
                let observer = CheckingObserver(expected: 20_000)
                let subscription = numbered(producer: 0, count: 20_000).observe(on: scheduler, strategy: strategy).subscribe(observer)
                XCTAssertTrue(observer.waitForStop(), "\(name): no completion")
                XCTAssertEqual(observer.count, 20_000, name)
                XCTAssertEqual(observer.violations, [], name)
                XCTAssertEqual(observer.detector.maximumConcurrency, 1, "\(name): observer calls overlapped")
                XCTAssertEqual(observer.stops, 1, name)
                subscription.dispose()
            }
        }
    }

    /// A burst queued while main is busy, drained on main by ConcurrentMainScheduler (which
    /// runs inline there): the reference algorithm's one-schedule-per-event recursion must
    /// loop, not nest, or it overflows the main thread's stack (found by schedbench's quick suite).
    func testLongBurstDrainedInlineOnMainDoesNotNest() {
        for strategy in ObserveOnStrategy.all {
            let events = 200_000
            let subject = PublishSubject<Int>()
            var received = 0
            let subscription = subject.observe(on: ConcurrentMainScheduler.instance, strategy: strategy)
                .subscribe(onNext: { _ in received += 1 })
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<events { subject.onNext(value) }
                sent.signal()
            }
            sent.wait()  // main is busy here: everything is queued before it drains
            XCTAssertTrue(pumpMainLoop(timeout: 30) { received == events }, "\(strategy): \(received) of \(events)")
            subscription.dispose()
        }
    }

    func testMergedProducersLoseAndDuplicateNothing() {
        let producers = 8
        let perProducer = 5_000
        for strategy in strategies {
            for (schedulerName, scheduler) in schedulers() {
                let name = "\(schedulerName)/\(strategy)"
                let sources = (0..<producers).map { producer in
                    numbered(producer: producer, count: perProducer)
                        .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
                }
                let observer = CheckingObserver(expected: producers * perProducer)
                let subscription = Observable.merge(sources).observe(on: scheduler, strategy: strategy).subscribe(observer)
                XCTAssertTrue(observer.waitForStop(), "\(name): no completion")
                XCTAssertEqual(observer.count, producers * perProducer, "\(name): lost or duplicated elements")
                XCTAssertEqual(observer.violations, [], name)
                XCTAssertEqual(observer.lastPerProducer, Dictionary(uniqueKeysWithValues: (0..<producers).map { ($0, perProducer - 1) }), name)
                XCTAssertEqual(observer.detector.maximumConcurrency, 1, "\(name): observer calls overlapped")
                subscription.dispose()
            }
        }
    }

    /// Producers calling `on` concurrently break the Rx grammar, but the hand-off must
    /// still deliver everything (a race in the recursive sink once stranded a burst).
    func testConcurrentUnserializedProducersLoseNothing() {
        for strategy in strategies {
            for (schedulerName, scheduler) in schedulers() {
                let name = "\(schedulerName)/\(strategy)"
                let subject = PublishSubject<Int>()
                let received = Locked(0)
                let all = DispatchSemaphore(value: 0)
                let total = 4 * 5_000
                let subscription = subject.observe(on: scheduler, strategy: strategy).subscribe(onNext: { _ in
                    if received.withValue({
                        $0 += 1
                        return $0
                    }) == total {
                        all.signal()
                    }
                })
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    for value in 0..<5_000 { subject.onNext(value) }
                }
                XCTAssertEqual(all.wait(timeout: .now() + 20), .success, "\(name): stranded events, got \(received.current) of \(total)")
                subscription.dispose()
            }
        }
    }

    func testErrorIsDeliveredOnceAfterTheElements() {
        for strategy in strategies {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on-error")
            let received = Locked<[Event<Int>]>([])
            let done = DispatchSemaphore(value: 0)
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(TestError(1))
                observer.onError(TestError(2))
                return Disposables.create()
            }
            let subscription = source.observe(on: scheduler, strategy: strategy).subscribe { event in
                received.withValue { $0.append(event) }
                if event.isStopEvent { done.signal() }
            }
            XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
            Thread.sleep(forTimeInterval: 0.02)
            XCTAssertEqual(received.current, [.next(1), .error(TestError(1))], "\(strategy)")
            subscription.dispose()
        }
    }

    /// Disposing on the observing serial scheduler stops delivery at once, even with
    /// elements already enqueued.
    func testDisposeOnTheObservingSchedulerStopsDeliveryWithElementsEnqueued() {
        for strategy in strategies {
            for (schedulerName, scheduler) in schedulers().prefix(1) + [
                ("main-async", MainScheduler.asyncInstance), ("main", MainScheduler.instance),
            ] {
                let name = "\(schedulerName)/\(strategy)"
                let subject = PublishSubject<Int>()
                let received = Locked<[Int]>([])
                let subscription = SingleAssignmentDisposable()
                let disposedAt = Locked<Int?>(nil)
                subscription.setDisposable(
                    subject.observe(on: scheduler, strategy: strategy).subscribe(onNext: { value in
                        received.withValue { $0.append(value) }
                        if value == 10 {
                            subscription.dispose()
                            disposedAt.withValue { $0 = value }
                        }
                    }))
                for value in 0..<1_000 { subject.onNext(value) }
                // Wait for the disposal at element 10 (a yielding drain may take several
                // scheduled blocks), then let one more block through the scheduler so that
                // anything wrongly delivered after the disposal would have arrived.
                XCTAssertTrue(pumpMainLoop { disposedAt.current != nil }, "\(name): element 10 never arrived")
                let drained = Locked(false)
                _ = scheduler.schedule(()) { _ in
                    drained.withValue { $0 = true }
                    return Disposables.create()
                }
                XCTAssertTrue(pumpMainLoop { drained.current }, name)
                XCTAssertEqual(disposedAt.current, 10, name)
                XCTAssertEqual(received.current, Array(0...10), "\(name): delivered after dispose")
            }
        }
    }

    func testDisposeFromAnotherThreadEventuallyStopsDelivery() {
        for strategy in strategies {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on-dispose")
            let count = Locked(0)
            let subject = PublishSubject<Int>()
            let subscription = subject.observe(on: scheduler, strategy: strategy).subscribe(onNext: { _ in count.withValue { $0 += 1 } })
            for value in 0..<100 { subject.onNext(value) }
            subscription.dispose()
            let afterDispose = count.current
            for value in 0..<100 { subject.onNext(value) }
            let drained = DispatchSemaphore(value: 0)
            _ = scheduler.schedule(()) { _ in
                drained.signal()
                return Disposables.create()
            }
            XCTAssertEqual(drained.wait(timeout: .now() + 5), .success)
            XCTAssertLessThanOrEqual(count.current, 100)
            XCTAssertGreaterThanOrEqual(count.current, afterDispose)
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testObserveOnMainSchedulerFromBackground() {
        for strategy in strategies {
            let received = Locked<[Int]>([])
            let onMain = Locked(true)
            let subscription = numbered(producer: 0, count: 100)
                .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
                .observe(on: MainScheduler.instance, strategy: strategy)
                .subscribe(onNext: { element in
                    if !Thread.isMainThread { onMain.withValue { $0 = false } }
                    received.withValue { $0.append(element.sequence) }
                })
            XCTAssertTrue(pumpMainLoop { received.current.count == 100 })
            XCTAssertEqual(received.current, Array(0..<100))
            XCTAssertTrue(onMain.current)
            subscription.dispose()
        }
    }

    /// On schedulers that run inline (trampoline, concurrent-main on main), a full
    /// batch hands the token back instead of recursing: a long stream cannot overflow
    /// the stack, and order is kept.
    func testDrainOnInlineSchedulersDoesNotRecursePerBatch() {
        for scheduler in [CurrentThreadScheduler.instance, ConcurrentMainScheduler.instance] as [ImmediateSchedulerType] {
            var received = 0
            var inOrder = true
            _ = Observable<Int>.range(start: 0, count: 100_000)
                .observe(on: scheduler, strategy: .drain(batchSize: 1))
                .subscribe(onNext: { value in
                    if value != received { inOrder = false }
                    received += 1
                })
            XCTAssertEqual(received, 100_000)
            XCTAssertTrue(inOrder)
        }
    }

    /// On a serial dispatch scheduler `reference` submits one block per event at once
    /// (RxSwift's ObserveOnSerialDispatchQueue), so a block submitted straight to the queue
    /// afterwards runs after all of them; `referenceGeneric` keeps the events in its own
    /// queue and schedules the next only when one has run (RxSwift's generic ObserveOn),
    /// so that block runs after the first.
    func testReferenceGenericSchedulesOneEventAtATimeOnASerialScheduler() {
        for (strategy, expected) in [(ObserveOnStrategy.reference, [1, 2, 3, 0]), (.referenceGeneric, [1, 0, 2, 3])] {
            var queue: DispatchQueue?
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on-generic", serialQueueConfiguration: { queue = $0 })
            let order = Locked<[Int]>([])
            let subject = PublishSubject<Int>()
            let subscription = subject.observe(on: scheduler, strategy: strategy).subscribe(onNext: { value in
                order.withValue { $0.append(value) }
            })
            let gate = DispatchSemaphore(value: 0)
            queue!.async { gate.wait() }
            for value in 1...3 { subject.onNext(value) }
            queue!.async { order.withValue { $0.append(0) } }
            gate.signal()
            let deadline = Date().addingTimeInterval(5)
            while order.current.count < 4 && Date() < deadline { queue!.sync {} }
            XCTAssertEqual(order.current, expected, strategy.name)
            subscription.dispose()
        }
    }

    func testStrategyNamesRoundTrip() {
        XCTAssertEqual(ObserveOnStrategy.all.map(\.name), ["reference", "referenceGeneric", "drain"])
        for strategy in ObserveOnStrategy.all { XCTAssertEqual(ObserveOnStrategy(name: strategy.name), strategy) }
        XCTAssertNil(ObserveOnStrategy(name: "fastest"))
        XCTAssertEqual(ObserveOnStrategy.default, .drain)
    }

    func testObserveOnInVirtualTime() {
        for strategy in strategies {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let observer = scheduler.start { source.observe(on: scheduler, strategy: strategy) }
            XCTAssertEqual(observer.events, [.next(211, 1), .next(221, 2), .completed(231)], "\(strategy)")
        }
    }
}
