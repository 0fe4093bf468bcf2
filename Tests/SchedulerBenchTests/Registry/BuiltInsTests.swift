import Foundation
import RxSchedulers
import Synchronization
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// What each scheduler and strategy name builds: `reference` is RxSwift end to end on the
/// main queue (per-action dispatch, one main-queue block per event), `mainShared` is the
/// process-wide instance, and `referenceGeneric` is offered only where it differs.
final class BuiltInsTests: XCTestCase {
    func testRxSwiftStrategiesGetRxSwiftsMainDispatch() throws {
        let expected: [(StrategyName, MainScheduler.Dispatch)] = [
            (.reference, .perAction), (.referenceGeneric, .perAction), (.perAction, .perAction),
            (.drain, .batched), (.batched, .batched), (.none, .batched),
        ]
        for (strategy, dispatch) in expected {
            let scheduler = try XCTUnwrap(SchedulerName.main.make(strategy: strategy) as? MainScheduler)
            XCTAssertEqual(scheduler.dispatch, dispatch, strategy.rawValue)
            XCTAssertFalse(scheduler === MainScheduler.instance, "main is a private instance per trial")
        }
        for strategy in [StrategyName.reference, .drain] {
            XCTAssertTrue(SchedulerName.mainShared.make(strategy: strategy) as? MainScheduler === MainScheduler.instance)
        }
    }

    /// Dispatch is an axis of the serial and concurrent schedulers too: `batched` builds a
    /// batched scheduler, anything else (and RxSwift's algorithms) the per-action default.
    func testTheSerialAndConcurrentSchedulersTakeTheDispatchAxis() throws {
        for (strategy, dispatch) in [(StrategyName.batched, SchedulerDispatch.batched), (.perAction, .perAction), (.none, .perAction), (.reference, .perAction)] {
            let serial = try XCTUnwrap(SchedulerName.serial.make(strategy: strategy) as? SerialDispatchQueueScheduler)
            XCTAssertEqual(serial.dispatch, dispatch, strategy.rawValue)
            let concurrent = try XCTUnwrap(SchedulerName.concurrent.make(strategy: strategy) as? ConcurrentDispatchQueueScheduler)
            XCTAssertEqual(concurrent.dispatch, dispatch, strategy.rawValue)
        }
    }

    /// Every strategy name belongs to exactly one axis, and selects only on that axis.
    func testEveryStrategyNameBelongsToOneAxis() {
        for strategy in StrategyName.registered {
            let selects = [
                strategy.observeOnStrategy != nil, SchedulerDispatch(rawValue: strategy.rawValue) != nil, strategy.periodicPolicy != nil,
                strategy.isBaseline,
            ]
            switch strategy.axis {
            case .observeOn: XCTAssertEqual(selects, [true, false, false, false], strategy.rawValue)
            case .dispatch: XCTAssertEqual(selects, [false, true, false, false], strategy.rawValue)
            case .periodic: XCTAssertEqual(selects, [false, false, true, false], strategy.rawValue)
            case .baseline, .peer: XCTAssertEqual(selects, [false, false, false, true], strategy.rawValue)
            case .none: XCTAssertEqual(selects, [false, false, false, false], strategy.rawValue)
            }
        }
        XCTAssertEqual(Set(StrategyName.handOffs.map(\.axis)), [.baseline, .peer])
    }

    func testReferenceGenericIsOfferedOnlyWhereItDiffersFromReference() {
        for scheduler in SchedulerName.registered where scheduler != .none {
            let offered = Registry.observeOnStrategies(on: scheduler.registration)
            let serialDispatch = scheduler.registration.isSerialDispatch
            XCTAssertEqual(offered.contains(.referenceGeneric), serialDispatch, scheduler.rawValue)
            XCTAssertEqual(serialDispatch, (scheduler.make() as? SerialDispatchQueueScheduler) != nil, scheduler.rawValue)
        }
    }

    /// `observe(on:)` with `reference` on `main` puts one block on the main queue per event
    /// (the completion included), as RxSwift does; `drain` on `main` (batched) far fewer.
    func testReferenceOnMainPutsOneMainQueueBlockPerEvent() throws {
        let events = 200
        for strategy in [StrategyName.reference, .drain] {
            let scheduler = try XCTUnwrap(SchedulerName.main.make(strategy: strategy) as? MainScheduler)
            let received = Atomic<Int>(0)
            let source = Observable<Int>.create { observer in
                for value in 0..<events { observer.onNext(value) }
                observer.onCompleted()
                return Disposables.create()
            }
            .subscribe(on: SerialDispatchQueueScheduler(internalSerialQueueName: "scheduler-name-test"))
            let subscription = source.observe(on: scheduler, strategy: try strategy.requireObserveOnStrategy(for: .observeOnThroughput))
                .subscribe(onNext: { _ in received.wrappingAdd(1, ordering: .relaxed) })
            let deadline = Date().addingTimeInterval(10)
            while received.load(ordering: .relaxed) < events && Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.002)) }
            subscription.dispose()
            XCTAssertEqual(received.load(ordering: .relaxed), events, strategy.rawValue)
            if strategy == .reference {
                XCTAssertEqual(scheduler.mainQueueBlocks, events + 1, "one per element and one for onCompleted")
            } else {
                XCTAssertLessThan(scheduler.mainQueueBlocks, events / 2)
            }
        }
    }
}
