import BenchModel
import Synchronization

/// Checks "nothing is delivered after dispose returns": call `disposed()` right after
/// `dispose()` returns and `delivered()` in the observer; a delivery after the fence is reported.
final class DisposeFence: Sendable {
    private let closed = Atomic<Bool>(false)
    private let report: InvariantReport

    init(report: InvariantReport) { self.report = report }

    func disposed() { closed.store(true, ordering: .releasing) }

    @inline(__always)
    func delivered(_ what: @autoclosure () -> String = "event") {
        if closed.load(ordering: .acquiring) {
            report.record("\(what()) delivered after dispose returned")
        }
    }
}
