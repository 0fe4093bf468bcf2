import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// Reports rendered from fixture runs: the sections and charts a reader looks for, and
/// nothing fetched from anywhere.
final class RunReportTests: XCTestCase {
    private func result(_ benchCase: BenchCase, _ metrics: [[Metric: Double]]) -> CaseResult {
        CaseResult(
            benchCase: benchCase, trials: metrics.enumerated().map { TrialRecord(benchCase: benchCase, trial: $0.offset + 1, metrics: $0.element) })
    }

    private func throughput(_ strategy: StrategyName, producers: Int, _ rate: Double, failures: Double = 0) -> CaseResult {
        let benchCase = BenchCase(
            suite: "quick", workload: .observeOnThroughput, scheduler: .serial, strategy: strategy, producers: producers, events: 10_000,
            payloadBytes: 0, rateHz: 0)
        return result(
            benchCase,
            [0.97, 1.0, 1.03].map {
                [
                    .eventsPerSec: rate * $0, .nsPerEvent: 1e9 / (rate * $0), .allocsPerEvent: 0.1, .cpuUser: 0.01, .cpuSys: 0.001,
                    .ctxVoluntary: 10, .ctxInvoluntary: 2, .threadsPeak: 9, .rssPeak: 45e6, .invariantViolations: failures, .resourcesLeaked: 0,
                ]
            })
    }

    private func latencyCase(_ strategy: StrategyName, rate: Int, p99: Double) -> CaseResult {
        let benchCase = BenchCase(
            suite: "quick", workload: .observeOnLatency, scheduler: .serial, strategy: strategy, producers: 1, events: 5_000, payloadBytes: 0,
            rateHz: rate)
        return result(benchCase, [[.latencyP50: p99 / 10, .latencyP99: p99], [.latencyP50: p99 / 10, .latencyP99: p99 * 1.1]])
    }

    private func run(drainScale: Double = 1, failures: Double = 0) -> ReportInput {
        var cases: [CaseResult] = []
        for producers in [1, 2, 4] {
            cases.append(throughput(.reference, producers: producers, 500_000 / Double(producers)))
            cases.append(throughput(.drain, producers: producers, 1_000_000 * drainScale, failures: producers == 4 ? failures : 0))
        }
        cases += [
            latencyCase(.drain, rate: 1_000, p99: 50_000), latencyCase(.drain, rate: 10_000, p99: 400_000),
            latencyCase(.drain, rate: 50_000, p99: 4e6),
        ]
        cases += [latencyCase(.reference, rate: 1_000, p99: 80_000), latencyCase(.reference, rate: 10_000, p99: 2e6)]
        let periodic = BenchCase(
            suite: "quick", workload: .periodicCatchUp, scheduler: .serial, strategy: .catchUp, producers: 1, events: 300, payloadBytes: 0,
            rateHz: 0)
        cases.append(result(periodic, [[.ticksExpected: 300, .ticksDelivered: 300, .tickLatenessP99: 3.5e6]]))
        let distribution = [(0.0, 2.0), (50, 40), (90, 80), (99, 900), (99.9, 3_000), (100, 3_500)].map {
            LatencyFiles.Percentile(percentile: $0.0, microseconds: $0.1)
        }
        let latencyKey = cases.first { $0.benchCase.workload == .observeOnLatency }!.benchCase
        return ReportInput(
            path: "results/<fixture & co>", cases: cases,
            provenance: Provenance(
                runID: "run-1", timestamp: "2026-11-23T10:00:00Z", host: "ci-runner", cpu: "Test CPU", cores: 2, os: "Debian", swift: "6.3.1",
                commit: "abc123", build: "release", kernel: "6.1", governor: "none", cpuLimit: "none", loadAverage: "0.2"),
            latency: [latencyKey: distribution])
    }

    func testAReportHasEverySectionAndItsCharts() {
        let html = RunReport.render(run: run(), options: .init(title: "Nightly <quick> run"))
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<title>Nightly &lt;quick&gt; run</title>"), "the title is escaped")
        for section in ["overview", "scaling", "latency", "periodic", "resources", "summary"] {
            XCTAssertTrue(html.contains("<section id=\"\(section)\">"), section)
        }
        XCTAssertFalse(html.contains("<section id=\"comparison\">"), "no BASE, no comparison")
        XCTAssertTrue(html.contains("invariants held"))
        XCTAssertTrue(html.contains("<dd>abc123</dd>") && html.contains("<dd>Test CPU</dd>"), "provenance")
        // Scaling: one chart for observeOn.throughput on serial, a line per strategy.
        XCTAssertTrue(html.contains("observeOn.throughput on serial, 10k events"))
        XCTAssertTrue(html.contains(">producers (threads)</text>") && html.contains(">throughput (events/s)</text>"))
        // Latency: the distribution on the percentile axis, and p99 by rate with the limit and markers.
        XCTAssertTrue(html.contains(">percentile</text>") && html.contains(">99.9%</text>"))
        XCTAssertTrue(html.contains("p99 by rate") && html.contains("p99 limit 1 ms"))
        XCTAssertTrue(html.contains(">drain: 10k Hz</text>"), "drain held p99 under 1 ms up to 10 kHz")
        XCTAssertTrue(html.contains(">reference: 1k Hz</text>"))
        // Periodic and resources.
        XCTAssertTrue(html.contains("Ticks due and delivered") && html.contains("Tick lateness, p99"))
        for title in ["Allocations per event", "CPU time per event", "Context switches per trial", "Peak threads", "Peak resident memory"] {
            XCTAssertTrue(html.contains(title), title)
        }
        // Every chart is an accessible SVG; legends name the strategies.
        let charts = html.components(separatedBy: "<svg ").count - 1
        XCTAssertEqual(charts, 10, "scaling 1, latency 2, periodic 2, resources 5")
        XCTAssertEqual(html.components(separatedBy: "role=\"img\"").count - 1, charts)
        XCTAssertTrue(html.contains(#"class="legend">drain</text>"#) && html.contains(#"class="legend">reference</text>"#))
        // The summary table: every case, sortable.
        XCTAssertTrue(html.contains("<table class=\"sortable\">"))
        XCTAssertEqual(html.components(separatedBy: "<tr><td>").count - 1, 12)
    }

    /// One file that needs nothing else: no script, style, font or image from anywhere.
    func testAReportFetchesNothing() {
        let html = RunReport.render(run: run(), base: run(drainScale: 0.8))
        for external in ["http://", "https://", "src=", "<link", "@import", "url(", "//cdn"] {
            XCTAssertFalse(html.contains(external), external)
        }
        for reference in html.components(separatedBy: "href=\"").dropFirst() {
            XCTAssertTrue(reference.hasPrefix("#"), "only links inside the page: \(reference.prefix(30))")
        }
    }

    func testAComparisonIsAForestPlotWithTheVerdictOnTop() {
        let html = RunReport.render(run: run(drainScale: 0.7), base: run())
        XCTAssertTrue(html.contains("<section id=\"comparison\">"))
        XCTAssertTrue(html.contains("<span class=\"verdict fail\">regressed</span>"), "drain 30% slower")
        XCTAssertTrue(html.contains("Change per case and metric"))
        XCTAssertTrue(html.contains(">regressed</text>") && html.contains(">unchanged</text>"))
        XCTAssertTrue(html.contains("threshold ±5.0%"))
        let unchanged = RunReport.render(run: run(), base: run())
        XCTAssertFalse(unchanged.contains("verdict fail"), "the same run on both sides")
        XCTAssertTrue(unchanged.contains(": 0 regressed, 0 improved,"), "the same run on both sides")
    }

    /// An instruction count that moved between two processes is listed under the plot with
    /// its move, since the plot shows it only as inconclusive.
    func testAComparisonListsTheUnstableCounts() {
        func counted(_ instructions: Double, repeatDifference: Double) -> ReportInput {
            let benchCase = BenchCase(
                suite: "instructions", workload: .scheduleThroughput, scheduler: .concurrent, strategy: .perAction, producers: 1,
                events: 20_000, payloadBytes: 0, rateHz: 0)
            let counting = TrialRecord(
                benchCase: benchCase, trial: TrialRecord.countingTrial,
                metrics: [.instructionsPerEvent: instructions, .instructionsRepeatDifference: repeatDifference])
            return ReportInput(path: "r", cases: [CaseResult(benchCase: benchCase, trials: [counting])], provenance: nil)
        }
        let html = RunReport.render(run: counted(3_529, repeatDifference: 0.052), base: counted(2_965, repeatDifference: 0.004))
        XCTAssertTrue(html.contains("Left undecided: two instruction counts of one build, made in two processes, differed"), html)
        XCTAssertTrue(html.contains("instructions_per_event: 5.2%</li>"), html)
        let steady = RunReport.render(run: counted(2_966, repeatDifference: 0.001), base: counted(2_965, repeatDifference: 0))
        XCTAssertFalse(steady.contains("Left undecided"))
    }

    /// Defect: the report of an interrupted run did not say it was partial.
    func testAPartialRunSaysSo() {
        var partial = run(drainScale: 1)
        partial.status = RunStatus(planned: 40, finished: partial.cases.count)
        XCTAssertTrue(RunReport.render(run: partial).contains("partial run</span> The run stopped early"))
        XCTAssertTrue(RunReport.render(run: partial).contains("its results hold \(partial.cases.count) of the 40 cases"))
        var whole = run(drainScale: 1)
        whole.status = RunStatus(planned: whole.cases.count, finished: whole.cases.count)
        XCTAssertFalse(RunReport.render(run: whole).contains("partial run"))
        XCTAssertFalse(RunReport.render(run: run(drainScale: 1)).contains("partial run"), "a run from before run-status.json says nothing")
    }

    func testSectionsWithoutDataSayWhy() {
        let single = ReportInput(path: "r", cases: [throughput(.drain, producers: 1, 1e6, failures: 2)], provenance: nil)
        let html = RunReport.render(run: single)
        XCTAssertTrue(html.contains("No case in this run varies the number of producers"))
        XCTAssertTrue(html.contains("No latency distributions in this run"))
        XCTAssertTrue(html.contains("No periodic case in this run"))
        XCTAssertTrue(html.contains("correctness failure") && html.contains("6 violations"), "2 per trial over 3 trials")
    }

    func testWriteCreatesTheDirectoryAndTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-report-\(UUID().uuidString)/report")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let file = try RunReport.write(run: run(), to: directory)
        XCTAssertEqual(file.lastPathComponent, "index.html")
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("</html>"))
    }
}
