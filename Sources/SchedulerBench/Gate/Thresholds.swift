import Foundation

/// How large a change must be before `compare` calls it a regression or an improvement, as a
/// fraction (0.05 = 5%). Looked up per workload and metric, then per metric, then the default.
///
/// File format (JSON; every key optional):
///
///     {
///       "default": 0.05,
///       "metrics": { "latency_p99_ns": 0.15, "instructions_per_event": 0.01 },
///       "workloads": { "observeOn.latency": { "latency_p99_ns": 0.25 } }
///     }
public struct Thresholds: Sendable, Equatable {
    public var defaultThreshold: Double
    public var metrics: [Metric: Double]
    public var workloads: [WorkloadName: [Metric: Double]]

    public init(defaultThreshold: Double = 0.05, metrics: [Metric: Double] = [:], workloads: [WorkloadName: [Metric: Double]] = [:]) {
        self.defaultThreshold = defaultThreshold
        self.metrics = metrics
        self.workloads = workloads
    }

    public func threshold(for metric: Metric, in workload: WorkloadName) -> Double {
        workloads[workload]?[metric] ?? metrics[metric] ?? defaultThreshold
    }

    /// Reads a thresholds file; the error names the file and the bad key or value.
    public static func read(_ path: String, defaultThreshold: Double) throws -> Thresholds {
        func fail(_ problem: String) -> BenchError { .unreadable(path: path, problem: problem) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw fail("cannot read: \(error.localizedDescription)") }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw fail("not a JSON object like {\"default\": 0.05, \"metrics\": {...}, \"workloads\": {...}}")
        }
        func fraction(_ value: Any, _ key: String) throws -> Double {
            guard let number = value as? Double, number >= 0, number < 10 else {
                throw fail("\(key): '\(value)' is not a fraction like 0.05")
            }
            return number
        }
        func metricTable(_ value: Any, _ key: String) throws -> [Metric: Double] {
            guard let table = value as? [String: Any] else { throw fail("\(key) must map metric names to fractions") }
            var result: [Metric: Double] = [:]
            for (name, value) in table {
                guard let metric = Metric(rawValue: name) else {
                    throw fail("\(key): unknown metric '\(name)'; valid: \(Metric.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                result[metric] = try fraction(value, "\(key).\(name)")
            }
            return result
        }
        var thresholds = Thresholds(defaultThreshold: defaultThreshold)
        for (key, value) in object {
            switch key {
            case "default": thresholds.defaultThreshold = try fraction(value, key)
            case "metrics": thresholds.metrics = try metricTable(value, key)
            case "workloads":
                guard let table = value as? [String: Any] else { throw fail("workloads must map workload names to metric tables") }
                for (name, metrics) in table {
                    guard let workload = WorkloadName(rawValue: name) else {
                        throw fail("workloads: unknown workload '\(name)'; valid: \(WorkloadName.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    thresholds.workloads[workload] = try metricTable(metrics, "workloads.\(name)")
                }
            default:
                throw fail("unknown key '\(key)'; valid: default, metrics, workloads")
            }
        }
        return thresholds
    }
}
