import Foundation
import RxSchedulers
import RxSchedulersCocoa
import RxSchedulersTesting
import XCTest

/// Base class: each test runs with shared sequences delivering on `scheduler`, a
/// virtual-time scheduler made for the test (unless the class says otherwise), and must
/// leave `Resources.total` where it found it.
class SharedSequenceTestCase: XCTestCase {
    private var startResources: Int32 = 0
    var scheduler: TestScheduler!

    /// Whether the test runs with `SharingScheduler` mocked to `scheduler` (for its whole
    /// run: selectors build shared sequences while virtual time runs).
    class var mocksTheSharingScheduler: Bool { true }

    override func invokeTest() {
        guard Self.mocksTheSharingScheduler else { return super.invokeTest() }
        SharingScheduler.mock(makeScheduler: { self.scheduler }) { super.invokeTest() }
    }

    override func setUp() {
        super.setUp()
        startResources = Resources.total
        scheduler = TestScheduler(initialClock: 0)
    }

    override func tearDown() {
        scheduler = nil
        // Teardown on the main queue (a real MainScheduler's last blocks) gets two seconds.
        let deadline = Date().addingTimeInterval(2)
        while Resources.total != startResources && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
        XCTAssertEqual(Resources.total, startResources, "Rx resources leaked by \(name)")
        super.tearDown()
    }

    /// Subscribes `observer` to `sequence` at `subscribed` and disposes at `disposed`.
    func subscribe<Element>(
        _ sequence: Observable<Element>, _ observer: TestableObserver<Element>, at subscribed: TestTime, until disposed: TestTime
    ) {
        var subscription: Disposable?
        scheduler.scheduleAt(subscribed) { subscription = sequence.subscribe(observer) }
        scheduler.scheduleAt(disposed) { subscription?.dispose() }
    }
}

struct TestError: Error, Equatable {}

/// Runs the main run loop until `condition` holds or `timeout` passes; returns whether it held.
func pumpMainLoop(timeout: TimeInterval = 10, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        RunLoop.main.run(until: Date().addingTimeInterval(0.001))
    }
    return true
}

/// A value shared between threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
