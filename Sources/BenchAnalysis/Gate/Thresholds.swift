import BenchMeasure
import BenchModel
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
package struct Thresholds: Sendable, Equatable {
    package var defaultThreshold: Double
    package var metrics: [Metric: Double]
    package var workloads: [WorkloadName: [Metric: Double]]

    package init(defaultThreshold: Double = 0.05, metrics: [Metric: Double] = [:], workloads: [WorkloadName: [Metric: Double]] = [:]) {
        self.defaultThreshold = defaultThreshold
        self.metrics = metrics
        self.workloads = workloads
    }

    package func threshold(for metric: Metric, in workload: WorkloadName) -> Double {
        workloads[workload]?[metric] ?? metrics[metric] ?? defaultThreshold
    }

    /// The largest threshold a file may give: 10, a change of 1000%.
    package static let maximum = 10.0

    /// Reads a thresholds file; the error names the file and the bad key or value, or where
    /// the JSON stops being JSON (line and column). Values must be numbers from 0 up to
    /// (not including) `maximum`: `true`, strings and `null` are refused, not converted.
    package static func read(_ path: String, defaultThreshold: Double) throws -> Thresholds {
        func fail(_ problem: String) -> BenchError { .unreadable(path: path, problem: problem) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw fail("cannot read: \(FileProblem.describe(error, at: URL(fileURLWithPath: path)))")
        }
        let root: JSONNode
        do {
            root = try JSONDecoder().decode(JSONNode.self, from: data)
        } catch {
            throw fail("not valid JSON" + (JSONNode.syntaxErrorPosition(in: data).map { " (\($0))" } ?? ""))
        }
        guard case .object(let object) = root else {
            throw fail("not a JSON object like {\"default\": 0.05, \"metrics\": {...}, \"workloads\": {...}}")
        }
        func fraction(_ node: JSONNode, _ key: String) throws -> Double {
            guard case .number(let number) = node, number >= 0, number < maximum else {
                throw fail("\(key): \(node) is not a fraction from 0 to below \(Int(maximum)) (0.05 is 5%)")
            }
            return number
        }
        func metricTable(_ node: JSONNode, _ key: String) throws -> [Metric: Double] {
            guard case .object(let table) = node else { throw fail("\(key) must map metric names to fractions, not \(node)") }
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
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "default": thresholds.defaultThreshold = try fraction(value, key)
            case "metrics": thresholds.metrics = try metricTable(value, key)
            case "workloads":
                guard case .object(let table) = value else { throw fail("workloads must map workload names to metric tables, not \(value)") }
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

/// A JSON value that keeps its kind, so a boolean is never read as a number.
private enum JSONNode: Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array
    case object([String: JSONNode])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONNode].self) {
            self = .object(value)
        } else {
            _ = try container.decode([JSONNode].self)
            self = .array
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let value): return "\(value)"
        case .string(let value): return "\"\(value)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Where a JSON parser gave up, as "line L, column C", when it says.
    static func syntaxErrorPosition(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            let said = "\((error as NSError).userInfo)"
            guard let range = said.range(of: #"character (\d+)"#, options: .regularExpression),
                let offset = Int(said[range].dropFirst("character ".count))
            else { return nil }
            let before = data.prefix(offset)
            let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - before.startIndex + 1 } ?? 0) + 1
            return "line \(line), column \(column)"
        }
    }
}
