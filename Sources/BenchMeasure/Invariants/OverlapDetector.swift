import BenchModel
import Synchronization

/// Detects overlapping observer calls: `enter` at the start of each call, `leave` at the end.
/// Two calls inside each other's enter/leave window are reported. Cost: two atomic operations per call.
final class OverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let report: InvariantReport

    init(report: InvariantReport) { self.report = report }

    @inline(__always)
    func enter() {
        if inside.wrappingAdd(1, ordering: .acquiring).oldValue != 0 {
            report.record("observer called while another call was still running")
        }
    }

    @inline(__always)
    func leave() {
        inside.wrappingSubtract(1, ordering: .releasing)
    }
}
