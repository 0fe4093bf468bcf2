/// A per-trial measurement with its stable snake_case name (the `metric` column) and unit.
package enum Metric: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable, DeclarationOrdered {
    case wallTime = "wall_time_s"
    case eventsPerSec = "events_per_sec"
    case nsPerEvent = "ns_per_event"
    case latencyP50 = "latency_p50_ns"
    case latencyP90 = "latency_p90_ns"
    case latencyP99 = "latency_p99_ns"
    case latencyP999 = "latency_p999_ns"
    case latencyMax = "latency_max_ns"
    case cpuUser = "cpu_user_s"
    case cpuSys = "cpu_sys_s"
    case cpuNsPerEvent = "cpu_ns_per_event"
    case ctxVoluntary = "ctx_voluntary"
    case ctxInvoluntary = "ctx_involuntary"
    case threadsPeak = "threads_peak"
    case threadsEnd = "threads_end"
    case rssPeak = "rss_peak_bytes"
    case allocsPerEvent = "allocs_per_event"
    case bytesPerEvent = "bytes_per_event"
    case instructionsPerEvent = "instructions_per_event"
    /// How far apart the two counts of `instructions_per_event` are, made in two processes,
    /// as a fraction of their mean: 0 for a count that repeats exactly.
    case instructionsRepeatDifference = "instructions_repeat_difference"
    case resourcesLeaked = "resources_leaked"
    case invariantViolations = "invariant_violations"
    case ticksExpected = "ticks_expected"
    case ticksDelivered = "ticks_delivered"
    case tickLatenessP99 = "tick_lateness_p99_ns"
    case tickBacklogPeak = "tick_backlog_peak"
    case inlineShare = "inline_share"
    case pendingPeak = "pending_peak"
    case spinnerShown = "spinner_shown"
    case spinnerMinViolations = "spinner_min_violations"
    case sourceSubscriptions = "source_subscriptions"

    package var unit: String {
        switch self {
        case .wallTime, .cpuUser, .cpuSys: return "s"
        case .eventsPerSec: return "1/s"
        case .nsPerEvent, .cpuNsPerEvent, .latencyP50, .latencyP90, .latencyP99, .latencyP999, .latencyMax, .tickLatenessP99: return "ns"
        case .ctxVoluntary, .ctxInvoluntary, .threadsPeak, .threadsEnd, .resourcesLeaked,
            .invariantViolations, .ticksExpected, .ticksDelivered, .tickBacklogPeak, .pendingPeak, .spinnerMinViolations:
            return "count"
        case .inlineShare, .spinnerShown, .instructionsRepeatDifference: return "fraction"
        case .sourceSubscriptions: return "per load"
        case .rssPeak: return "bytes"
        case .allocsPerEvent: return "allocs/event"
        case .bytesPerEvent: return "bytes/event"
        case .instructionsPerEvent: return "instructions/event"
        }
    }

    /// Whether a larger value is better (throughput, delivered ticks, calls run inline);
    /// false for costs.
    package var higherIsBetter: Bool { self == .eventsPerSec || self == .ticksDelivered || self == .inlineShare }

    /// Correctness metrics: any non-zero value fails the run (exit 3).
    package var isCorrectness: Bool { self == .resourcesLeaked || self == .invariantViolations }
}
