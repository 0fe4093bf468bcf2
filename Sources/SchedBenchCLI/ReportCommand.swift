import ArgumentParser
import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// `schedbench report`: a self-contained HTML report of a run, and of its comparison with
/// a BASE run when one is given.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained HTML report of a run (and its comparison with BASE).",
        discussion: """
            One file, RUN/report/index.html unless --out says otherwise, with inline SVG \
            charts and CSS: the run's provenance and verdict, throughput against producers, \
            latency distributions (and p99 against rate where rates were swept), periodic \
            ticks, resources, a sortable summary table and, with BASE, a forest plot of every \
            case and metric. Nothing is fetched: it opens in any browser, offline, and prints.

            Exit codes: 0 written; 1 unreadable run or unwritable output; 64 usage.
            """
    )

    @Argument(help: ArgumentHelp("The run (results directory or results.csv).", valueName: "run"))
    var results: String

    @Argument(help: ArgumentHelp("A run to compare it with (results directory or results.csv).", valueName: "base"))
    var base: String?

    @Option(help: ArgumentHelp("Directory for index.html (default: RUN/report).", valueName: "dir"))
    var out: String?

    @Option(help: "The report's title.")
    var title = "schedbench report"

    @OptionGroup var limits: ReportLimits

    func validate() throws {
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out '' names no directory") }
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError("--title '\(title)' is empty; a report needs a heading")
        }
        _ = try limits.options(title: title)
    }

    func run() throws {
        let input = try ReportInput.read(results)
        guard !input.cases.isEmpty else { throw BenchError.unreadable(path: results, problem: "holds no results to report") }
        let baseInput = try base.map { try ReportInput.read($0) }
        let directory = out.map { URL(fileURLWithPath: $0) } ?? Self.defaultDirectory(for: results)
        let file = try RunReport.write(run: input, base: baseInput, to: directory, options: try limits.options(title: title))
        print(file.path)
    }

    /// `RUN/report`, beside results.csv.
    static func defaultDirectory(for run: String) -> URL {
        var directory = URL(fileURLWithPath: run)
        if directory.lastPathComponent == ResultsFiles.resultsName { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("report")
    }
}

/// The report's judgement settings: thresholds for its comparison, the p99 limit for its
/// latency-by-rate chart.
struct ReportLimits: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Default threshold for the comparison (5% or 0.05).", valueName: "fraction"))
    var threshold = "5%"

    @Option(help: ArgumentHelp("JSON thresholds file, as compare reads it.", valueName: "file"))
    var thresholds: String?

    @Option(help: ArgumentHelp("The p99 latency that latency-by-rate charts mark rates against: 500us, 1ms, 2s.", valueName: "duration"))
    var p99Limit = "1ms"

    func options(title: String) throws -> RunReport.Options {
        let fallback = try ComparisonOptions.parseThreshold(threshold)
        let table = try thresholds.map { try Thresholds.read($0, defaultThreshold: fallback) } ?? Thresholds(defaultThreshold: fallback)
        guard let limit = Self.nanoseconds(p99Limit), limit > 0 else {
            throw ValidationError("--p99-limit '\(p99Limit)' is not a duration like 500us, 1ms or 2s")
        }
        return RunReport.Options(title: title, thresholds: table, p99Limit: limit)
    }

    /// "250ns", "500us" (or µs), "1ms", "2s" in nanoseconds; nil for anything else.
    static func nanoseconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count)), value.isFinite else { return nil }
            return value * scale
        }
        return nil
    }
}
