import BenchChild
import BenchModel
import Foundation

/// How far apart two processes of one build came, per case and metric, over runs of that
/// build (A/A runs): `compare BASE NEW --noise-floor FILE` raises a row's threshold to its
/// case's floor, so two runs of an unchanged build are never called changed by less than
/// the build was seen to move on its own.
///
/// Why: a run made with `--processes 5` puts the spread between processes into its
/// intervals, but not what holds for a whole run. Some counts sit at one of two levels a
/// process (observe(on:) `openCombine` at 3.22 or 3.82 allocations an event); when all five
/// processes of one run land on the upper level and none of the other's do, the two runs
/// differ by 18.6% with no spread on either side, and Welch's test calls it a regression.
/// Runs of one build show both levels, and the floor holds the distance between them.
///
/// The floor of a case and metric is the widest ratio of two values of all the runs'
/// trials, less one (`largest / smallest − 1`, each value first raised to the metric's
/// comparison floor, as `Comparison` does). Two sides whose values all lie within what the
/// A/A runs showed cannot differ by more than that, whatever mode each side's run fell
/// into; so with the floor, a false alarm needs a value outside every A/A value seen. The
/// cost is detection: a row's threshold becomes at least its floor, which for time metrics
/// on a shared runner is often larger than anything but a broken build.
///
/// The file (JSON, written by `compare --write-noise-floor`):
///
///     {
///       "runs": 32,
///       "cases": {
///         "observeOn.latency/none/openCombine/p1/n5000/rate10000": { "allocs_per_event": 0.1863 }
///       }
///     }
///
/// Cases are `BenchCase.benchmarkName` (every case column but the suite, as comparisons
/// match cases); metrics are `Metric` names.
package struct NoiseFloor: Sendable, Equatable {
    /// How many runs the floors were measured on.
    package var runs: Int
    /// Floor per case (`benchmarkName`) and metric, as a fraction (0.186: 18.6%).
    package var floors: [String: [Metric: Double]]

    package init(runs: Int, floors: [String: [Metric: Double]]) {
        self.runs = runs
        self.floors = floors
    }

    /// The floor of `metric` in `benchCase`, if the runs measured it.
    package func floor(of metric: Metric, in benchCase: BenchCase) -> Double? {
        floors[benchCase.benchmarkName]?[metric]
    }

    /// Whether the floor holds any value for `benchCase`.
    package func covers(_ benchCase: BenchCase) -> Bool {
        floors[benchCase.benchmarkName] != nil
    }

    /// The floors of `runs` (each one run's cases): per case and metric with two values or
    /// more over all runs, all above zero, the widest ratio of two of them less one.
    /// Correctness metrics are left out (any failure decides on its own).
    package static func measure(_ runs: [[CaseResult]]) -> NoiseFloor {
        var ranges: [String: [Metric: (smallest: Double, largest: Double, count: Int)]] = [:]
        for run in runs {
            for result in run {
                for metric in Metric.allCases where !metric.isCorrectness {
                    for raw in result.values(metric) {
                        let value = max(raw, metric.comparisonFloor)
                        let seen = ranges[result.benchCase.benchmarkName]?[metric] ?? (.infinity, -.infinity, 0)
                        ranges[result.benchCase.benchmarkName, default: [:]][metric] = (
                            min(seen.smallest, value), max(seen.largest, value), seen.count + 1
                        )
                    }
                }
            }
        }
        var floors: [String: [Metric: Double]] = [:]
        for (name, metrics) in ranges {
            for (metric, range) in metrics where range.count >= 2 && range.smallest > 0 && range.largest.isFinite {
                floors[name, default: [:]][metric] = range.largest / range.smallest - 1
            }
        }
        return NoiseFloor(runs: runs.count, floors: floors)
    }

    /// The file's text: keys sorted, each floor to four decimals rounded up (a floor is
    /// never written smaller than measured).
    package func json() -> String {
        func fraction(_ value: Double) -> String { String(format: "%.4f", (value * 10_000).rounded(.up) / 10_000) }
        var lines = ["{", "  \"runs\": \(runs),", "  \"cases\": {"]
        let names = floors.keys.sorted()
        for (index, name) in names.enumerated() {
            let metrics = floors[name]!.sorted { $0.key.rawValue < $1.key.rawValue }
            let body = metrics.map { "\"\($0.key.rawValue)\": \(fraction($0.value))" }.joined(separator: ", ")
            lines.append("    \(Self.quoted(name)): { \(body) }" + (index == names.count - 1 ? "" : ","))
        }
        lines += ["  }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the file atomically.
    package func write(to url: URL) throws {
        try AtomicFile.write(json(), to: url)
    }

    /// Reads a noise floor file; the error names the file and what is wrong with it (not
    /// JSON, a key the format does not have, an unknown metric, a floor that is not a number
    /// from 0 up).
    package static func read(_ path: String) throws -> NoiseFloor {
        func fail(_ problem: String) -> BenchError { .unreadable(path: path, problem: problem) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw fail("cannot read: \(FileProblem.describe(error, at: URL(fileURLWithPath: path)))")
        }
        let file: NoiseFloorFile
        do {
            file = try JSONDecoder().decode(NoiseFloorFile.self, from: data)
        } catch let problem as NoiseFloorFile.Problem {
            throw fail(problem.text)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw fail("not valid JSON")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw fail("not a noise floor file: expected an object like {\"runs\": 32, \"cases\": {...}} (schedbench compare --write-noise-floor)")
        } catch let error as DecodingError {
            throw fail(NoiseFloorFile.describe(error))
        }
        var floors: [String: [Metric: Double]] = [:]
        for (name, metrics) in file.cases {
            for (key, floor) in metrics {
                guard let metric = Metric(rawValue: key) else { throw fail("case '\(name)': unknown metric '\(key)'") }
                floors[name, default: [:]][metric] = floor.value
            }
        }
        return NoiseFloor(runs: file.runs, floors: floors)
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// The noise floor file as JSON holds it: both keys, no other.
struct NoiseFloorFile: Decodable {
    var runs: Int
    var cases: [String: [String: Floor]]

    /// A floor: a JSON number from 0 up (not `true`, a string or `null`).
    struct Floor: Decodable {
        var value: Double

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let refuse = DecodingError.dataCorruptedError(in: container, debugDescription: "a floor must be a number from 0 up (0.186 is 18.6%)")
            // A boolean is tried first: it must not be read as the number 1 or 0.
            if container.decodeNil() || (try? container.decode(Bool.self)) != nil { throw refuse }
            guard let number = try? container.decode(Double.self), number.isFinite, number >= 0 else { throw refuse }
            value = number
        }
    }

    /// What is wrong with a file that is JSON but not a noise floor, in words.
    struct Problem: Error {
        var text: String
    }

    private enum Key: String, CodingKey, CaseIterable {
        case runs, cases
    }

    init(from decoder: any Decoder) throws {
        if let unknown = try AnyCodingKey.firstUnknown(in: decoder, valid: Key.allCases.map(\.rawValue)) {
            throw Problem(text: "unknown key '\(unknown)'; valid: runs, cases")
        }
        let container = try decoder.container(keyedBy: Key.self)
        guard container.contains(.runs) else { throw Problem(text: "'runs' is missing") }
        guard (try? container.decode(Bool.self, forKey: .runs)) == nil, let count = try? container.decode(Double.self, forKey: .runs),
            count == count.rounded(), count >= 1, count <= Double(Int32.max)
        else { throw Problem(text: "'runs' must be a whole number of runs, 1 or more") }
        runs = Int(count)
        cases = try container.decode([String: [String: Floor]].self, forKey: .cases)
    }

    /// A decoding error as the place in the file and what is wrong there.
    static func describe(_ error: DecodingError) -> String {
        let (path, problem): ([any CodingKey], String)
        switch error {
        case .dataCorrupted(let context): (path, problem) = (context.codingPath, context.debugDescription)
        case .typeMismatch(_, let context): (path, problem) = (context.codingPath, "not the expected kind of value")
        case .valueNotFound(_, let context): (path, problem) = (context.codingPath, "no value")
        case .keyNotFound(let key, let context): (path, problem) = (context.codingPath + [key], "missing")
        @unknown default: return "\(error)"
        }
        let place = path.map(\.stringValue).joined(separator: ", ")
        return place.isEmpty ? problem : "\(place): \(problem)"
    }
}
