/// One point of the workload matrix: the case columns of every CSV row.
public struct BenchCase: Hashable, Codable, Sendable, CustomStringConvertible {
    public var suite: String
    public var workload: WorkloadName
    public var scheduler: SchedulerName
    public var strategy: StrategyName
    /// Producer threads (1 where the workload has a single producer).
    public var producers: Int
    /// Events, operations or ticks per trial.
    public var events: Int
    /// Bytes of heap payload each event carries (0: none).
    public var payloadBytes: Int
    /// Pacing rate in events per second (0: as fast as possible).
    public var rateHz: Int

    public init(
        suite: String, workload: WorkloadName, scheduler: SchedulerName, strategy: StrategyName,
        producers: Int, events: Int, payloadBytes: Int, rateHz: Int
    ) {
        self.suite = suite
        self.workload = workload
        self.scheduler = scheduler
        self.strategy = strategy
        self.producers = producers
        self.events = events
        self.payloadBytes = payloadBytes
        self.rateHz = rateHz
    }

    /// A compact label for progress lines and tables.
    public var description: String {
        var label = "\(workload.rawValue) \(scheduler.rawValue)/\(strategy.rawValue) p=\(producers) n=\(events)"
        if payloadBytes > 0 { label += " payload=\(payloadBytes)" }
        if rateHz > 0 { label += " rate=\(rateHz)" }
        return label
    }

    /// The case columns, in CSV order.
    public static let columns = ["suite", "workload", "scheduler", "strategy", "producers", "events", "payload_bytes", "rate_hz"]

    public var columnValues: [String] {
        [
            suite, workload.rawValue, scheduler.rawValue, strategy.rawValue,
            String(producers), String(events), String(payloadBytes), String(rateHz),
        ]
    }
}
