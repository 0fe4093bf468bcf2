import BenchModel
/// Checks a stream of `(producer, sequence)` deliveries: every producer's events arrive
/// exactly once and in the order sent (sequence 0, 1, 2, …). A repeat or a step back is
/// reported as it happens; a gap as it happens and, with anything still missing, at `finish()`.
///
/// `observe` needs each producer's events delivered serially: either all deliveries
/// serialized (what observe(on:) guarantees) or each producer's on its own thread (the
/// trampoline), since a producer's slot is the only state it touches. If delivery is not
/// serialized the slots may race, but plain integer slots never crash, and
/// `OverlapDetector` reports the overlap itself.
public final class SequenceChecker: @unchecked Sendable {
    private let report: InvariantReport
    private let expectedCounts: [Int]
    /// Next expected sequence per producer, one per 128-byte line so trampoline producers
    /// (each checking on its own thread) do not share a cache line.
    private let next: UnsafeMutableBufferPointer<Int>
    private static var stride: Int { 128 / MemoryLayout<Int>.stride }

    /// `expectedCounts[p]` events are expected from producer `p`.
    package init(expectedCounts: [Int], report: InvariantReport) {
        self.report = report
        self.expectedCounts = expectedCounts
        next = .allocate(capacity: expectedCounts.count * Self.stride)
        next.initialize(repeating: 0)
    }

    deinit { next.deallocate() }

    /// Records that producer `producer`'s event `sequence` was delivered.
    @inline(__always)
    public func observe(producer: Int, sequence: Int) {
        guard producer >= 0, producer < expectedCounts.count else {
            report.record("event from unknown producer \(producer)")
            return
        }
        let slot = producer &* Self.stride
        let expected = next[slot]
        if sequence == expected {
            next[slot] = expected &+ 1
        } else if sequence < expected {
            report.record("producer \(producer): event \(sequence) delivered again or out of order (expected \(expected))")
        } else {
            report.record("producer \(producer): events \(expected)..<\(sequence) lost or reordered")
            next[slot] = sequence &+ 1
        }
    }

    /// Reports producers whose events did not all arrive.
    public func finish() {
        for producer in 0..<expectedCounts.count where next[producer * Self.stride] != expectedCounts[producer] {
            report.record("producer \(producer): \(next[producer * Self.stride]) of \(expectedCounts[producer]) events delivered")
        }
    }
}
