import Synchronization

/// Checks "nothing is delivered after dispose returns": call `disposed()` right after
/// `dispose()` returns and `delivered()` in the observer; a delivery after the fence is reported.
public final class DisposeFence: @unchecked Sendable {
    private let closed = Atomic<Bool>(false)
    private let report: InvariantReport

    public init(report: InvariantReport) { self.report = report }

    public func disposed() { closed.store(true, ordering: .releasing) }

    @inline(__always)
    public func delivered(_ what: @autoclosure () -> String = "event") {
        if closed.load(ordering: .acquiring) {
            report.record("\(what()) delivered after dispose returned")
        }
    }
}
