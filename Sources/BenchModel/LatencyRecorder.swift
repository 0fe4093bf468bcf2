import Histogram

/// Latency distribution of one trial in an HdrHistogram (3 significant digits, 1 ns to 60 s).
///
/// Coordinated omission: open-loop workloads give each event an *intended* send time
/// (start + i / rate) and record `completion - intended`, not `completion - actual send`.
/// When the producer itself is held up (descheduled, or blocked by the code under test),
/// the events it sends late carry the delay, so a stall shows in the percentiles instead of
/// being hidden by fewer samples. `recordCorrected` is the closed-loop alternative
/// (HdrHistogram's back-filling by expected interval) for callers that only have service times.
///
/// Not thread-safe: record from one thread (observers are serialized).
package struct LatencyRecorder: Codable, Sendable {
    static let highestTrackableNanos: UInt64 = 60_000_000_000
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: highestTrackableNanos, numberOfSignificantValueDigits: .three
    )

    package init() {}

    /// Records an event intended to start at `intended` and completed at `completed` (ns, same clock).
    @inline(__always)
    package mutating func record(intended: UInt64, completed: UInt64) {
        record(completed > intended ? completed - intended : 0)
    }

    @inline(__always)
    mutating func record(_ latencyNanos: UInt64) {
        _ = histogram.record(Swift.min(Swift.max(latencyNanos, 1), Self.highestTrackableNanos))
    }

    /// Records a closed-loop service time, back-filling the samples a stall kept from being
    /// taken when requests were due every `expectedInterval` ns.
    mutating func recordCorrected(_ latencyNanos: UInt64, expectedInterval: UInt64) {
        _ = histogram.recordCorrectedValue(Swift.min(Swift.max(latencyNanos, 1), Self.highestTrackableNanos), expectedInterval: expectedInterval)
    }

    package var count: UInt64 { histogram.totalCount }

    /// Adds `other`'s samples (a case's trials into one distribution).
    package mutating func add(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
    }

    /// HdrHistogram's percentile distribution text (what its `outputPercentileDistribution`
    /// prints and its plotter reads), values in microseconds, 5 ticks per half distance.
    package var percentileDistribution: String {
        var text = ""
        histogram.outputPercentileDistribution(to: &text, outputValueUnitScalingRatio: 1_000)
        return text
    }

    /// The value at `percentile` (0–100), within the histogram's 0.1% precision.
    package func value(atPercentile percentile: Double) -> UInt64 {
        histogram.valueAtPercentile(percentile)
    }

    var max: UInt64 { histogram.max }

    /// The latency metrics (`latency_p50_ns` … `latency_max_ns`); empty when nothing was recorded.
    package var metrics: [Metric: Double] {
        guard count > 0 else { return [:] }
        return [
            .latencyP50: Double(value(atPercentile: 50)),
            .latencyP90: Double(value(atPercentile: 90)),
            .latencyP99: Double(value(atPercentile: 99)),
            .latencyP999: Double(value(atPercentile: 99.9)),
            .latencyMax: Double(max),
        ]
    }
}
