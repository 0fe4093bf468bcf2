import RxSchedulers
import XCTest

@testable import SchedulerBench
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class InvariantTests: XCTestCase {
    func testInOrderDeliveryIsClean() {
        let report = InvariantReport()
        let checker = SequenceChecker(expectedCounts: [3, 2], report: report)
        for (producer, sequence) in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)] {
            checker.observe(producer: producer, sequence: sequence)
        }
        checker.finish()
        XCTAssertEqual(report.count, 0, "\(report.descriptions)")
    }

    func testDuplicateReorderGapAndLossAreReported() {
        let report = InvariantReport()
        let checker = SequenceChecker(expectedCounts: [4, 2], report: report)
        checker.observe(producer: 0, sequence: 0)
        checker.observe(producer: 0, sequence: 0)  // duplicate
        checker.observe(producer: 0, sequence: 2)  // 1 lost (or late)
        checker.observe(producer: 0, sequence: 1)  // late: out of order
        checker.observe(producer: 1, sequence: 0)  // producer 1 never sends 1
        checker.finish()
        XCTAssertEqual(report.count, 5, "\(report.descriptions)")
        XCTAssertTrue(report.descriptions[0].contains("again or out of order"))
        XCTAssertTrue(report.descriptions[1].contains("lost"))
        XCTAssertTrue(report.descriptions.contains { $0.contains("producer 1: 1 of 2") })
    }

    func testOverlappingCallsAreReported() {
        let report = InvariantReport()
        let detector = OverlapDetector(report: report)
        detector.enter()
        detector.leave()
        XCTAssertEqual(report.count, 0)
        detector.enter()
        detector.enter()  // a second call before the first returned
        detector.leave()
        detector.leave()
        XCTAssertEqual(report.count, 1)
    }

    func testDeliveryAfterDisposeIsReported() {
        let report = InvariantReport()
        let fence = DisposeFence(report: report)
        fence.delivered()
        fence.disposed()
        fence.delivered("late event")
        XCTAssertEqual(report.descriptions, ["late event delivered after dispose returned"])
    }

    /// A deliberately broken source (it repeats one event and skips another) behind a
    /// real observe(on:) must be caught by the consumer the workloads use.
    func testBrokenSourceThroughObserveOnIsCaught() {
        let report = InvariantReport()
        let consumer = ItemConsumer(expectedCounts: [4], invariants: report, checking: true)
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable<Item>.create { observer in
            for sequence in [0, 1, 1, 3] { observer.onNext(Item(producer: 0, sequence: sequence)) }
            observer.onCompleted()
            return Disposables.create()
        }
        .observe(on: SerialDispatchQueueScheduler(internalSerialQueueName: "broken"))
        .subscribe(onNext: consumer.consume, onCompleted: { done.signal() })
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        subscription.dispose()
        consumer.finish()
        XCTAssertEqual(report.count, 2, "\(report.descriptions)")  // the repeat and the gap
    }

    func testReportKeepsTheFirstDescriptionsAndCountsAll() {
        let report = InvariantReport()
        for index in 0..<20 { report.record("violation \(index)") }
        XCTAssertEqual(report.count, 20)
        XCTAssertEqual(report.descriptions.count, InvariantReport.keptDescriptions)
        XCTAssertEqual(report.descriptions.first, "violation 0")
    }
}
