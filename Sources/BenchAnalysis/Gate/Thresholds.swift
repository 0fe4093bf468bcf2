import BenchChild
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

    /// Reads a thresholds file (`ThresholdsFile`, decoded with `JSONDecoder`); the error
    /// names the file and the bad key or value, or where the JSON stops being JSON (line and
    /// column). Values must be numbers from 0 up to (not including) `maximum`: `true`,
    /// strings and `null` are refused, not converted. Keys the file leaves out keep
    /// `defaultThreshold` and empty tables.
    package static func read(_ path: String, defaultThreshold: Double) throws -> Thresholds {
        func fail(_ problem: String) -> BenchError { .unreadable(path: path, problem: problem) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw fail("cannot read: \(FileProblem.describe(error, at: URL(fileURLWithPath: path)))")
        }
        let file: ThresholdsFile
        do {
            file = try JSONDecoder().decode(ThresholdsFile.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty && ThresholdsFile.syntaxErrorPosition(in: data) != nil {
            throw fail("not valid JSON (\(ThresholdsFile.syntaxErrorPosition(in: data)!))")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw fail("not a JSON object like {\"default\": 0.05, \"metrics\": {...}, \"workloads\": {...}}")
        } catch let error as DecodingError {
            throw fail(ThresholdsFile.describe(error))
        }
        return Thresholds(
            defaultThreshold: file.defaultThreshold?.value ?? defaultThreshold, metrics: file.metrics?.mapValues(\.value) ?? [:],
            workloads: file.workloads?.mapValues { $0.mapValues(\.value) } ?? [:])
    }
}

/// The thresholds file as JSON holds it: every key optional, no other key allowed.
struct ThresholdsFile: Decodable {
    var defaultThreshold: Fraction?
    var metrics: [Metric: Fraction]?
    var workloads: [WorkloadName: [Metric: Fraction]]?

    /// A threshold: a JSON number from 0 up to (not including) `Thresholds.maximum`.
    struct Fraction: Decodable {
        var value: Double

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            func refuse(_ shown: String) -> DecodingError {
                .dataCorruptedError(
                    in: container, debugDescription: "\(shown) is not a fraction from 0 to below \(Int(Thresholds.maximum)) (0.05 is 5%)")
            }
            // A boolean is tried first: it must not be read as the number 1 or 0.
            if container.decodeNil() { throw refuse("null") }
            if let flag = try? container.decode(Bool.self) { throw refuse("\(flag)") }
            if let number = try? container.decode(Double.self) {
                guard number >= 0, number < Thresholds.maximum else { throw refuse("\(number)") }
                value = number
                return
            }
            if let text = try? container.decode(String.self) { throw refuse("\"\(text)\"") }
            throw refuse("an array or an object")
        }
    }

    private enum Key: String, CodingKey, CaseIterable {
        case defaultThreshold = "default", metrics, workloads
    }

    init(from decoder: any Decoder) throws {
        if let unknown = try AnyCodingKey.firstUnknown(in: decoder, valid: Key.allCases.map(\.rawValue)) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "unknown key '\(unknown)'; valid: \(Key.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        let container = try decoder.container(keyedBy: Key.self)
        defaultThreshold = try container.decodeIfPresent(Fraction.self, forKey: .defaultThreshold)
        metrics = try Self.metricTable(container, .metrics)
        if container.contains(.workloads) {
            let tables = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .workloads)
            var result: [WorkloadName: [Metric: Fraction]] = [:]
            for key in tables.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                let workload = WorkloadName(key.stringValue)
                // Any workload's name, a user's own included: a name neither run measured
                // is pointed out when the thresholds are applied (`ComparisonWorkflow`).
                if let problem = NameRules.problem(with: key.stringValue) {
                    throw DecodingError.dataCorruptedError(forKey: key, in: tables, debugDescription: "workload '\(key.stringValue)' \(problem)")
                }
                result[workload] = try Self.metricTable(tables, key)
            }
            workloads = result
        }
    }

    /// The metric table at `key` of `container`, its names checked against `Metric`.
    private static func metricTable<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> [Metric: Fraction]? {
        guard container.contains(key) else { return nil }
        let table = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
        var result: [Metric: Fraction] = [:]
        for name in table.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            guard let metric = Metric(rawValue: name.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: name, in: table,
                    debugDescription: "unknown metric '\(name.stringValue)'; valid: \(Metric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            result[metric] = try table.decode(Fraction.self, forKey: name)
        }
        return result
    }

    /// A decoding error as "where: what" (`workloads.observeOn.latency: …`), in the words
    /// the format's own checks chose, or the decoder's for a value of the wrong kind.
    static func describe(_ error: DecodingError) -> String {
        let (path, said): ([any CodingKey], String)
        switch error {
        case .dataCorrupted(let context): (path, said) = (context.codingPath, context.debugDescription)
        case .typeMismatch(let type, let context):
            (path, said) = (context.codingPath, type == Double.self ? context.debugDescription : "must be a JSON object of names and fractions")
        case .keyNotFound(let key, let context): (path, said) = (context.codingPath, "missing '\(key.stringValue)'")
        case .valueNotFound(_, let context): (path, said) = (context.codingPath, context.debugDescription)
        @unknown default: return "\(error)"
        }
        let location = path.map(\.stringValue).joined(separator: ".")
        return location.isEmpty ? said : "\(location): \(said)"
    }

    /// Where a JSON parser gave up, as "line L, column C", when it says; nil when the data
    /// is JSON.
    static func syntaxErrorPosition(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            let said = "\((error as NSError).userInfo)"
            guard let range = said.range(of: #"character (\d+)"#, options: .regularExpression),
                let offset = Int(said[range].dropFirst("character ".count))
            else { return "position unknown" }
            let before = data.prefix(offset)
            let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - before.startIndex + 1 } ?? 0) + 1
            return "line \(line), column \(column)"
        }
    }
}
