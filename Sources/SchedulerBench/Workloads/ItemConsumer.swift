import BenchModel
import Foundation
import RxSchedulers

/// The observer end of the throughput and latency workloads: checks each delivery
/// (overlap, order, exactly once) when `checking`, and records latency when stamped.
/// Called serially by the code under test; the checks report if it is not.
final class ItemConsumer: @unchecked Sendable {
    let sequence: SequenceChecker?
    private let overlap: OverlapDetector?
    private let fence: DisposeFence?
    // Touched only by the serialized deliveries (the overlap check reports otherwise), so
    // without the dynamic exclusivity check: it cost ~75 instructions per event.
    @exclusivity(unchecked) private(set) var latency = LatencyRecorder()
    @exclusivity(unchecked) private(set) var delivered = 0
    private let recordsLatency: Bool

    init(expectedCounts: [Int], invariants: InvariantReport, checking: Bool, recordsLatency: Bool = false) {
        sequence = checking ? SequenceChecker(expectedCounts: expectedCounts, report: invariants) : nil
        overlap = checking ? OverlapDetector(report: invariants) : nil
        fence = checking ? DisposeFence(report: invariants) : nil
        self.recordsLatency = recordsLatency
    }

    @inline(__always)
    func consume(_ item: Item) {
        overlap?.enter()
        fence?.delivered("event \(item.sequence) of producer \(item.producer)")
        if recordsLatency { latency.record(intended: item.stamp, completed: MonotonicClock.now()) }
        sequence?.observe(producer: item.producer, sequence: item.sequence)
        delivered &+= 1
        #if ValidationSlowdown
        // Where the event is delivered, unless the thread that made it delivers it too.
        if pthread_equal(item.madeOn, pthread_self()) == 0 { ValidationSlowdown.perEvent() }
        #endif
        overlap?.leave()
    }

    /// An event past the measured ones, which may legitimately arrive before dispose
    /// returns: checked for overlap and against the dispose fence only.
    func tail(_ item: Item) {
        overlap?.enter()
        fence?.delivered("event \(item.sequence) of producer \(item.producer)")
        overlap?.leave()
    }

    /// Marks the subscription disposed: any later `consume` or `tail` is a violation.
    func disposed() { fence?.disposed() }

    /// Reports missing events.
    func finish() { sequence?.finish() }
}
