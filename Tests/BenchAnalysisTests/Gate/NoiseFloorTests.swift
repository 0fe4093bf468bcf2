import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel

/// `NoiseFloor`: measured from A/A runs, written and read back, and applied by `Comparison`
/// to the false alarm it exists for (a count that keeps one of two levels for a whole run).
final class NoiseFloorTests: XCTestCase {
    private let latency = BenchCase(
        suite: "quick", workload: .observeOnLatency, scheduler: .none, strategy: .openCombine,
        producers: 1, events: 5_000, payloadBytes: 0, rateHz: 10_000)
    private let trampoline = BenchCase(
        suite: "quick", workload: .trampolineNested, scheduler: .currentThread, strategy: .none,
        producers: 1, events: 1_000, payloadBytes: 0, rateHz: 0)

    /// One run: a trial per process, each with the given allocations an event and
    /// ns/event, and no correctness failure.
    private func run(_ benchCase: BenchCase, allocations: [Double], nanos: [Double]? = nil) -> CaseResult {
        let nanos = nanos ?? allocations.map { _ in 100 }
        return CaseResult(
            benchCase: benchCase,
            trials: zip(allocations, nanos).enumerated().map { index, values in
                TrialRecord(
                    benchCase: benchCase, trial: index + 1,
                    metrics: [.allocsPerEvent: values.0, .nsPerEvent: values.1, .invariantViolations: 0, .resourcesLeaked: 0])
            })
    }

    /// The two levels of observe(on:) `openCombine`'s allocations an event in the A/A pairs
    /// of 2026-11-30 (night).
    private let lower = 3.2206
    private let upper = 3.8206

    func testTheFloorIsTheWidestRatioOfTwoProcessesOverEveryRun() throws {
        let floor = NoiseFloor.measure([
            [run(latency, allocations: [lower, lower, 3.2874, lower, lower], nanos: [100, 110, 90, 100, 100])],
            [run(latency, allocations: [lower, upper, upper, 3.2464, 3.2506]), run(trampoline, allocations: [0, 0])],
        ])
        XCTAssertEqual(floor.runs, 2)
        XCTAssertEqual(try XCTUnwrap(floor.floor(of: .allocsPerEvent, in: latency)), upper / lower - 1, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(floor.floor(of: .nsPerEvent, in: latency)), 110.0 / 90 - 1, accuracy: 1e-12)
        // Zero allocations are raised to the metric's comparison floor, as `Comparison` does: no spread.
        XCTAssertEqual(floor.floor(of: .allocsPerEvent, in: trampoline), 0)
        XCTAssertNil(floor.floor(of: .invariantViolations, in: latency), "correctness decides on its own")
        XCTAssertNil(floor.floor(of: .bytesPerEvent, in: latency), "a metric no run measured has no floor")
        // The suite is not part of a case's identity.
        var otherSuite = latency
        otherSuite.suite = "default"
        XCTAssertNotNil(floor.floor(of: .allocsPerEvent, in: otherSuite))
        // One value over all runs is no spread to measure.
        XCTAssertNil(NoiseFloor.measure([[run(latency, allocations: [lower])]]).floor(of: .allocsPerEvent, in: latency))
    }

    func testTheFileRoundTripsAndNeverRoundsAFloorDown() throws {
        let measured = NoiseFloor(runs: 32, floors: [latency.benchmarkName: [.allocsPerEvent: 0.186_31, .nsPerEvent: 2]])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("noise-floor-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try measured.write(to: url)
        let read = try NoiseFloor.read(url.path)
        XCTAssertEqual(read.runs, 32)
        XCTAssertEqual(try XCTUnwrap(read.floor(of: .allocsPerEvent, in: latency)), 0.1864, accuracy: 1e-12, "rounded up")
        XCTAssertEqual(read.floor(of: .nsPerEvent, in: latency), 2)
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains("\"observeOn.latency/none/openCombine/p1/n5000/rate10000\": { \"allocs_per_event\": 0.1864, \"ns_per_event\": 2.0000 }"), text)
    }

    func testABadFileIsRefusedNamingTheFileAndTheProblem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("noise-floor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = latency.benchmarkName
        let cases: [(String, String)] = [
            ("{\"runs\": 3, \"cases\": {", "not valid JSON"),
            ("[1, 2]", "not a noise floor file"),
            ("{\"runs\": 3, \"cases\": {}, \"window\": 5}", "unknown key 'window'; valid: runs, cases"),
            ("{\"cases\": {}}", "'runs' is missing"),
            ("{\"runs\": 0, \"cases\": {}}", "'runs' must be a whole number of runs, 1 or more"),
            ("{\"runs\": 2.5, \"cases\": {}}", "'runs' must be a whole number of runs, 1 or more"),
            ("{\"runs\": 3, \"cases\": {\"\(name)\": {\"allocs\": 0.1}}}", "case '\(name)': unknown metric 'allocs'"),
            ("{\"runs\": 3, \"cases\": {\"\(name)\": {\"allocs_per_event\": -0.1}}}", "a floor must be a number from 0 up"),
            ("{\"runs\": 3, \"cases\": {\"\(name)\": {\"allocs_per_event\": true}}}", "a floor must be a number from 0 up"),
            ("{\"runs\": 3, \"cases\": {\"\(name)\": {\"allocs_per_event\": \"0.1\"}}}", "a floor must be a number from 0 up"),
            ("{\"runs\": 3, \"cases\": {\"\(name)\": 0.1}}", "cases, \(name): not the expected kind of value"),
        ]
        for (index, (text, problem)) in cases.enumerated() {
            let url = directory.appendingPathComponent("\(index).json")
            try text.write(to: url, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try NoiseFloor.read(url.path), text) { error in
                guard case BenchError.unreadable(let path, let said) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(path, url.path)
                XCTAssertTrue(said.contains(problem), "\(text): \(said)")
            }
        }
        XCTAssertThrowsError(try NoiseFloor.read(directory.appendingPathComponent("absent.json").path))
    }

    /// Pair 6 of the loaded A/A pairs: every process of one run at the upper level, none of
    /// the other's. Welch's test calls it 18% worse; the floor of the other pairs' runs,
    /// which saw both levels, leaves it unregressed, and a change past the floor still regresses.
    func testTheFloorKeepsALevelSwitchFromBeingCalledARegressionAndStillCatchesMore() throws {
        let thresholds = Thresholds(defaultThreshold: 0.05)
        let base = [run(latency, allocations: [3.2872, lower, lower, 3.259, lower])]
        let levelSwitch = [run(latency, allocations: [upper, upper, upper, 3.8208, upper])]
        let without = Comparison(base: base, new: levelSwitch, thresholds: thresholds, metrics: [.allocsPerEvent])
        XCTAssertEqual(without.rows.first?.verdict, .regressed, "the false alarm the floor exists for")

        let floor = NoiseFloor.measure([
            [run(latency, allocations: [lower, upper, upper, 3.2464, 3.2506])],
            [run(latency, allocations: [3.277, lower, upper, 3.2848, upper])],
        ])
        let with = Comparison(base: base, new: levelSwitch, thresholds: thresholds, metrics: [.allocsPerEvent], noiseFloor: floor)
        let row = try XCTUnwrap(with.rows.first)
        XCTAssertNotEqual(row.verdict, .regressed)
        XCTAssertEqual(try XCTUnwrap(row.noiseFloor), upper / lower - 1, accuracy: 1e-12)
        XCTAssertEqual(row.threshold, row.noiseFloor, "the floor is above the 5% threshold, so it is the threshold")

        let worse = [run(latency, allocations: [4.5, 4.5, 4.51, 4.5, 4.49])]
        XCTAssertEqual(
            Comparison(base: base, new: worse, thresholds: thresholds, metrics: [.allocsPerEvent], noiseFloor: floor).rows.first?.verdict,
            .regressed, "40% more allocations is past the floor")

        // A floor below the threshold leaves the threshold as it was.
        let quiet = NoiseFloor(runs: 2, floors: [latency.benchmarkName: [.allocsPerEvent: 0.01]])
        let same = try XCTUnwrap(Comparison(base: base, new: levelSwitch, thresholds: thresholds, metrics: [.allocsPerEvent], noiseFloor: quiet).rows.first)
        XCTAssertEqual(same.threshold, 0.05)
        XCTAssertEqual(same.verdict, .regressed)

        let csv = try ComparisonFile.render(with)
        XCTAssertEqual(csv.split(separator: "\n").first?.split(separator: ",").last, "noise_floor")
        XCTAssertTrue(csv.split(separator: "\n")[1].hasSuffix(",0.1863006893125505"), csv)
    }
}
