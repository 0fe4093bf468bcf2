/// One point of the workload matrix: the case columns of every CSV row.
package struct BenchCase: Hashable, Codable, Sendable, CustomStringConvertible {
    package var suite: String
    package var workload: WorkloadName
    package var scheduler: SchedulerName
    package var strategy: StrategyName
    /// Producer threads (1 where the workload has a single producer).
    package var producers: Int
    /// Events, operations or ticks per trial.
    package var events: Int
    /// Bytes of heap payload each event carries (0: none).
    package var payloadBytes: Int
    /// Pacing rate in events per second (0: as fast as possible).
    package var rateHz: Int

    package init(
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
    package var description: String {
        var label = "\(workload.rawValue) \(scheduler.rawValue)/\(strategy.rawValue) p=\(producers) n=\(events)"
        if payloadBytes > 0 { label += " payload=\(payloadBytes)" }
        if rateHz > 0 { label += " rate=\(rateHz)" }
        return label
    }

    /// The case columns, in CSV order.
    package static let columns = ["suite", "workload", "scheduler", "strategy", "producers", "events", "payload_bytes", "rate_hz"]

    package var columnValues: [String] {
        [
            suite, workload.rawValue, scheduler.rawValue, strategy.rawValue,
            String(producers), String(events), String(payloadBytes), String(rateHz),
        ]
    }

    /// The case as one path-like name, for exports and file names
    /// (`observeOn.latency/serial/drain/p2/n1000/payload64/rate500`): workload, scheduler,
    /// strategy, producers and events, then payload and rate when they are not zero.
    package var benchmarkName: String {
        var name = "\(workload.rawValue)/\(scheduler.rawValue)/\(strategy.rawValue)"
        name += "/p\(producers)/n\(events)"
        if payloadBytes > 0 { name += "/payload\(payloadBytes)" }
        if rateHz > 0 { name += "/rate\(rateHz)" }
        return name
    }
}
