/// Checks a stream of `(producer, sequence)` deliveries: every producer's events arrive
/// exactly once and in the order sent (sequence 0, 1, 2, …). A repeat or a step back is
/// reported as it happens; a gap as it happens and, with anything still missing, at `finish()`.
///
/// `observe` is meant for serialized delivery (what observe(on:) guarantees). If delivery
/// is not serialized the counters may race, but plain integer slots never crash, and
/// `OverlapDetector` reports the overlap itself.
public final class SequenceChecker: @unchecked Sendable {
    private let report: InvariantReport
    private let expectedCounts: [Int]
    private let next: UnsafeMutableBufferPointer<Int>
    private var delivered = 0

    /// `expectedCounts[p]` events are expected from producer `p`.
    public init(expectedCounts: [Int], report: InvariantReport) {
        self.report = report
        self.expectedCounts = expectedCounts
        next = .allocate(capacity: expectedCounts.count)
        next.initialize(repeating: 0)
    }

    deinit { next.deallocate() }

    public var deliveredCount: Int { delivered }

    @inline(__always)
    public func observe(producer: Int, sequence: Int) {
        delivered &+= 1
        guard producer >= 0, producer < next.count else {
            report.record("event from unknown producer \(producer)")
            return
        }
        let expected = next[producer]
        if sequence == expected {
            next[producer] = expected &+ 1
        } else if sequence < expected {
            report.record("producer \(producer): event \(sequence) delivered again or out of order (expected \(expected))")
        } else {
            report.record("producer \(producer): events \(expected)..<\(sequence) lost or reordered")
            next[producer] = sequence &+ 1
        }
    }

    /// Reports producers whose events did not all arrive.
    public func finish() {
        for producer in 0..<expectedCounts.count where next[producer] != expectedCounts[producer] {
            report.record("producer \(producer): \(next[producer]) of \(expectedCounts[producer]) events delivered")
        }
    }
}
