import BenchModel
import Synchronization

/// Detects overlapping observer calls: `enter` at the start of each call, `leave` at the end.
/// Two calls inside each other's enter/leave window are reported. Cost: two atomic operations per call.
public final class OverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let report: InvariantReport

    package init(report: InvariantReport) { self.report = report }

    /// Call at the start of each call.
    @inline(__always)
    public func enter() {
        if inside.wrappingAdd(1, ordering: .acquiring).oldValue != 0 {
            report.record("observer called while another call was still running")
        }
    }

    /// Call at the end of each call.
    @inline(__always)
    public func leave() {
        inside.wrappingSubtract(1, ordering: .releasing)
    }
}
