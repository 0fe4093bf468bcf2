import BenchModel
import Foundation

/// The files of a results directory (the SchedulerBench documentation, "Results format"):
/// - `results.csv`, tidy: provenance, case columns, `trial, metric, value, unit`, one row per case × trial × metric;
/// - `summary.csv`, one row per case: provenance, case columns, `trials`, then per metric its median
///   (correctness metrics: the worst trial), and for the key metrics a 95% interval for the median;
/// - `violations.csv`: provenance, case columns, `round, phase, trial, description`, one row
///   per invariant violation described (the first few of each trial); only a header when
///   every case held its invariants. Runs written before it have none, and read as
///   holding no descriptions.
package enum ResultsFiles {
    package static let resultsName = "results.csv"
    package static let summaryName = "summary.csv"
    package static let violationsName = "violations.csv"

    package static let violationsHeader = Provenance.columns + BenchCase.columns + ["round", "phase", "trial", "description"]
    static let requiredViolationsColumns = BenchCase.columns + ["round", "phase", "trial", "description"]

    package static let resultsHeader = Provenance.columns + BenchCase.columns + ["trial", "metric", "value", "unit"]
    /// What reading needs: files written before the testbed columns were added still read.
    static let requiredResultsColumns = Provenance.requiredColumns + BenchCase.columns + ["trial", "metric", "value", "unit"]

    /// Metrics whose summary carries `_ci_low`/`_ci_high` columns.
    package static let intervalMetrics: [Metric] = [.eventsPerSec, .nsPerEvent, .latencyP50, .latencyP99]

    package static let summaryHeader: [String] =
        Provenance.columns + BenchCase.columns + ["trials"]
        + Metric.allCases.flatMap { metric in
            intervalMetrics.contains(metric) ? [metric.rawValue, "\(metric.rawValue)_ci_low", "\(metric.rawValue)_ci_high"] : [metric.rawValue]
        }

    package static func resultsRows(_ cases: [CaseResult], provenance: Provenance) -> [[String]] {
        cases.flatMap { result in
            result.trials.flatMap { record in
                record.metrics.keys.sorted().map { metric in
                    provenance.columnValues + record.benchCase.columnValues
                        + [String(record.trial), metric.rawValue, format(record.metrics[metric]!), metric.unit]
                }
            }
        }
    }

    package static func summaryRows(_ cases: [CaseResult], provenance: Provenance) -> [[String]] {
        cases.map { result in
            let timed = result.trials.filter { $0.trial != TrialRecord.countingTrial }.count
            var row = provenance.columnValues + result.benchCase.columnValues + [String(timed)]
            for metric in Metric.allCases {
                let values = result.values(metric)
                let central = metric.isCorrectness ? values.max() : Statistics.median(values)
                row.append(central.map(format) ?? "")
                if intervalMetrics.contains(metric) {
                    let interval = Statistics.medianInterval(values)
                    row.append(interval.map { format($0.low) } ?? "")
                    row.append(interval.map { format($0.high) } ?? "")
                }
            }
            return row
        }
    }

    package static func violationRows(_ cases: [CaseResult], provenance: Provenance) -> [[String]] {
        cases.flatMap { result in
            result.violationSamples.map { sample in
                provenance.columnValues + result.benchCase.columnValues
                    + [String(sample.round), sample.phase.rawValue, String(sample.trial), sample.description]
            }
        }
    }

    /// Creates `directory` if needed and checks that files can be written there, before
    /// anything is measured. Throws `BenchError.unwritable` saying why not.
    package static func prepare(_ directory: URL) throws {
        do {
            try createWritable(directory)
        } catch {
            throw BenchError.unwritable(path: directory.path, problem: FileProblem.describe(error, at: directory.appendingPathComponent("x")))
        }
    }

    /// Creates `directory` if needed and writes and removes a probe file in it: what a
    /// writer will do, tried before the work that precedes the writing.
    package static func createWritable(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let probe = directory.appendingPathComponent(".schedbench-write-test-\(getpid())")
        try Data().write(to: probe)
        try FileManager.default.removeItem(at: probe)
    }

    /// Writes the three files, each atomically, into `directory` (which must exist):
    /// the violations first, so that results showing a failure always have its descriptions beside them.
    package static func write(_ cases: [CaseResult], provenance: Provenance, to directory: URL) throws {
        try CSVFile.write(
            header: violationsHeader, rows: violationRows(cases, provenance: provenance),
            to: directory.appendingPathComponent(violationsName))
        try CSVFile.write(
            header: resultsHeader, rows: resultsRows(cases, provenance: provenance),
            to: directory.appendingPathComponent(resultsName))
        try CSVFile.write(
            header: summaryHeader, rows: summaryRows(cases, provenance: provenance),
            to: directory.appendingPathComponent(summaryName))
    }

    /// Reads `results.csv` (or the one inside a results directory) back into cases and provenance.
    /// A value that cannot be — not a decimal number, infinite, negative — and a case ×
    /// trial × metric given twice are errors naming the file and the row: a corrupted run
    /// must never pass a comparison.
    package static func read(_ path: String) throws -> (cases: [CaseResult], provenance: Provenance?) {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            url = url.appendingPathComponent(resultsName)
        }
        var order: [BenchCase] = []
        var trials: [BenchCase: [Int: [Metric: Double]]] = [:]
        var trialOrder: [BenchCase: [Int]] = [:]
        var firstLine: [BenchCase: [Int: [Metric: Int]]] = [:]
        var provenance: Provenance?
        try CSVFile.forEachRow(url, requiring: requiredResultsColumns) { row, line in
            func fail(_ problem: String) -> BenchError { .unreadable(path: url.path, problem: "row \(line): \(problem)") }
            // Any well-formed name reads: a run of a user's executable holds its own names.
            func name(_ column: String) throws -> String {
                let value = row[column]!
                let problem = column == "strategy" ? NameRules.problem(withStrategy: value) : NameRules.problem(with: value)
                if let problem { throw fail("\(column) '\(value)' \(problem)") }
                return value
            }
            let workload = WorkloadName(try name("workload"))
            let scheduler = SchedulerName(try name("scheduler"))
            let written = StrategyName(try name("strategy"))
            // Older builds' names read as today's, so their runs compare with new ones.
            let strategy = StrategyName.current(written, workload: workload, scheduler: scheduler)
            func integer(_ column: String, minimum: Int) throws -> Int {
                guard let text = row[column], let value = Int(text), value >= minimum else {
                    throw fail("\(column) '\(row[column] ?? "")' is not a whole number ≥ \(minimum)")
                }
                return value
            }
            let producers = try integer("producers", minimum: 1)
            let events = try integer("events", minimum: 1)
            let payload = try integer("payload_bytes", minimum: 0)
            let rate = try integer("rate_hz", minimum: 0)
            let trial = try integer("trial", minimum: 0)
            guard let metric = Metric(rawValue: row["metric"]!) else { throw fail("unknown metric '\(row["metric"]!)'") }
            let text = row["value"]!
            guard let value = decimal(text) else { throw fail("\(metric.rawValue) value '\(text)' is not a decimal number") }
            guard value.isFinite, value >= 0 else {
                throw fail("\(metric.rawValue) value \(text) is impossible: every metric is a finite, non-negative count, time, size or rate")
            }
            let benchCase = BenchCase(
                suite: row["suite"]!, workload: workload, scheduler: scheduler, strategy: strategy,
                producers: producers, events: events, payloadBytes: payload, rateHz: rate)
            if let earlier = firstLine[benchCase]?[trial]?[metric] {
                throw fail("\(benchCase) trial \(trial) \(metric.rawValue) is also given in row \(earlier); each must appear once")
            }
            firstLine[benchCase, default: [:]][trial, default: [:]][metric] = line
            if trials[benchCase] == nil { order.append(benchCase) }
            if trials[benchCase]?[trial] == nil { trialOrder[benchCase, default: []].append(trial) }
            trials[benchCase, default: [:]][trial, default: [:]][metric] = value
            if provenance == nil {
                provenance = Provenance(
                    runID: row["run_id"]!, timestamp: row["timestamp"]!, host: row["host"]!, cpu: row["cpu"]!,
                    cores: Int(row["cores"]!) ?? 0, os: row["os"]!, swift: row["swift"]!, commit: row["commit"]!, build: row["build"]!,
                    kernel: row["kernel"] ?? Provenance.unrecorded, governor: row["governor"] ?? Provenance.unrecorded,
                    cpuLimit: row["cpu_limit"] ?? Provenance.unrecorded, loadAverage: row["load_avg"] ?? Provenance.unrecorded
                )
            }
        }
        let samples = try readViolations(besides: url)
        let cases = order.map { benchCase in
            CaseResult(
                benchCase: benchCase,
                trials: trialOrder[benchCase]!.map {
                    TrialRecord(benchCase: benchCase, trial: $0, metrics: trials[benchCase]![$0]!)
                },
                violationSamples: samples[benchCase] ?? [])
        }
        return (cases, provenance)
    }

    /// The violations described in the `violations.csv` beside `results` (none when there
    /// is no such file: a run from before it), by case.
    static func readViolations(besides results: URL) throws -> [BenchCase: [ViolationSample]] {
        let url = results.deletingLastPathComponent().appendingPathComponent(violationsName)
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        var samples: [BenchCase: [ViolationSample]] = [:]
        try CSVFile.forEachRow(url, requiring: requiredViolationsColumns) { row, line in
            func fail(_ problem: String) -> BenchError { .unreadable(path: url.path, problem: "row \(line): \(problem)") }
            func integer(_ column: String) throws -> Int {
                guard let value = Int(row[column]!), value >= 0 else { throw fail("\(column) '\(row[column]!)' is not a whole number ≥ 0") }
                return value
            }
            guard let phase = ViolationSample.Phase(rawValue: row["phase"]!) else {
                throw fail("phase '\(row["phase"]!)' is not one of \(ViolationSample.Phase.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let workload = WorkloadName(row["workload"]!)
            let scheduler = SchedulerName(row["scheduler"]!)
            let benchCase = BenchCase(
                suite: row["suite"]!, workload: workload, scheduler: scheduler,
                strategy: StrategyName.current(StrategyName(row["strategy"]!), workload: workload, scheduler: scheduler),
                producers: try integer("producers"), events: try integer("events"), payloadBytes: try integer("payload_bytes"),
                rateHz: try integer("rate_hz"))
            samples[benchCase, default: []].append(
                ViolationSample(round: try integer("round"), phase: phase, trial: try integer("trial"), description: row["description"]!))
        }
        return samples
    }

    /// A number written in decimal (digits, a point, an exponent), as `format` writes them;
    /// nil for anything else, including what `Double(_:)` would also take: `nan`, `inf`, hex.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            text.contains(where: \.isNumber)
        else { return nil }
        return Double(text)
    }

    /// Numbers as Swift prints them: the shortest text that reads back to the same Double.
    package static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
