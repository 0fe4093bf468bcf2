/// The stable names users type on the command line and find in CSV files: workloads,
/// schedulers and strategies. They are open: the built-ins and a user's own entries are
/// all declared through the registry (`Registry` in BenchMeasure), which holds each name's
/// one-line description and what it stands for; a name itself is only its spelling.
/// Renaming a built-in breaks stored results and CI baselines: add, never rename.
package protocol OpenName: RawRepresentable, Hashable, Codable, CodingKeyRepresentable, Sendable, CustomStringConvertible
where RawValue == String {
    init(_ rawValue: String)
}

extension OpenName {
    package init(rawValue: String) { self.init(rawValue) }
    package var description: String { rawValue }

    package init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    package var codingKey: any CodingKey { NameKey(stringValue: rawValue) }

    package init?<Key: CodingKey>(codingKey: Key) { self.init(codingKey.stringValue) }
}

/// The coding key of a name used as a dictionary key (thresholds files).
private struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// What a case measures: a workload registered under this name.
package struct WorkloadName: OpenName {
    package let rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }

    package static let scheduleThroughput = Self("schedule.throughput")
    package static let observeOnThroughput = Self("observeOn.throughput")
    package static let mergeThroughput = Self("merge.throughput")
    package static let observeOnLatency = Self("observeOn.latency")
    package static let subscribeOnCycle = Self("subscribeOn.cycle")
    package static let trampolineNested = Self("trampoline.nested")
    package static let mainInline = Self("main.inline")
    package static let mainFlood = Self("main.flood")
    package static let mainMixed = Self("main.mixed")
    package static let periodicCatchUp = Self("periodic.catchUp")
    package static let pipelineSearch = Self("pipeline.search")
    package static let pipelineLoading = Self("pipeline.loading")
}

/// Closed sets of names (metrics) sort in the order they are declared (the order tables use).
package protocol DeclarationOrdered: CaseIterable, Comparable where AllCases: Collection {}

extension DeclarationOrdered {
    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What makes a name usable everywhere a name goes: command-line lists (split at commas),
/// CSV cells, export paths (`workload/scheduler/strategy/…`) and file names.
package enum NameRules {
    /// Why `name` cannot be a name, or nil when it can: it must be 1–64 characters of
    /// letters, digits, `.`, `_` and `-`.
    package static func problem(with name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.count > 64 { return "is longer than 64 characters" }
        let allowed = name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || ".-_".unicodeScalars.contains($0) }
        return allowed ? nil : "may hold only letters, digits, '.', '_' and '-'"
    }

    /// Why `name` cannot be a case's strategy, or nil when it can: a name, or two joined
    /// by `StrategyName.compositeSeparator` (`drain+batched`).
    package static func problem(withStrategy name: String) -> String? {
        let parts = name.split(separator: StrategyName.compositeSeparator, omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return "joins more than two names with '\(StrategyName.compositeSeparator)'" }
        for part in parts { if let problem = problem(with: String(part)) { return parts.count == 1 ? problem : "has a part that \(problem)" } }
        return nil
    }
}
