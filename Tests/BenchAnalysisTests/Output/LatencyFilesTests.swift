import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

final class LatencyFilesTests: XCTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .observeOnLatency, scheduler: .serial, strategy: .drain, producers: 1, events: 100, payloadBytes: 0,
        rateHz: 1_000)

    func testADistributionIsWrittenAsHdrHistogramsPercentileText() throws {
        var latency = LatencyRecorder()
        for microseconds in 1...100 { latency.record(UInt64(microseconds) * 1_000) }
        var second = LatencyRecorder()
        second.record(500_000)
        latency.add(second)
        var result = CaseResult(benchCase: benchCase, trials: [])
        result.latency = latency
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-hgrm-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }

        let file = try XCTUnwrap(try LatencyFiles.write(result, in: directory))
        XCTAssertEqual(file.lastPathComponent, "observeOn.latency-serial-drain-p1-n100-rate1000.hgrm")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.split(separator: " "), ["Value", "Percentile", "TotalCount", "1/(1-Percentile)"])
        // Values in microseconds: the smallest sample is 1 µs, the largest 500 µs.
        XCTAssertEqual(lines[1].split(separator: " ").first.flatMap { Double($0) } ?? 0, 1, accuracy: 0.01)
        XCTAssertTrue(lines.contains { $0.hasPrefix("#[Max") && $0.contains("Total count    =          101") }, lines.joined(separator: "\n"))
        let maximum = try XCTUnwrap(lines.first { $0.hasPrefix("#[Max") }).split(separator: "=")[1].split(separator: ",")[0]
        XCTAssertEqual(Double(maximum.trimmingCharacters(in: .whitespaces)) ?? 0, 500, accuracy: 0.5)

        LatencyFiles.removeAll(in: directory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertNil(try LatencyFiles.write(CaseResult(benchCase: benchCase, trials: []), in: directory), "no distribution, no file")
    }

    /// What `run` writes reads back to the percentiles it recorded (the ones results.csv
    /// holds), to the file's printed precision; and the reader names a broken line.
    func testADistributionReadsBackToItsPercentiles() throws {
        var latency = LatencyRecorder()
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let uniform = Double(state >> 11) / Double(1 << 53)
            latency.record(UInt64(20_000 + 2_000_000 * pow(uniform, 8)))  // 20 µs … 2 ms, a long tail
        }
        var result = CaseResult(benchCase: benchCase, trials: [])
        result.latency = latency
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-hgrm-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = try XCTUnwrap(try LatencyFiles.write(result, in: directory))

        let rows = try LatencyFiles.read(file)
        XCTAssertEqual(rows.first?.percentile, 0)
        XCTAssertEqual(rows.last?.percentile, 100)
        XCTAssertEqual(try LatencyFiles.readAll(in: directory)[file.lastPathComponent], rows)
        let metrics = latency.metrics
        for (metric, percentile) in [(Metric.latencyP50, 50.0), (.latencyP90, 90), (.latencyP99, 99), (.latencyP999, 99.9)] {
            let recorded = try XCTUnwrap(metrics[metric]) / 1_000
            try Self.assertBetweenSteps(rows, percentile: percentile, holds: recorded, metric.rawValue)
        }
        XCTAssertEqual(try XCTUnwrap(rows.last).microseconds, Double(latency.max) / 1_000, accuracy: Double(latency.max) / 1_000 * 0.002)

        try Data("       Value     Percentile TotalCount 1/(1-Percentile)\n\n  1.000 0.5 one 2.0\n".utf8).write(to: file)
        XCTAssertThrowsError(try LatencyFiles.read(file)) { error in
            XCTAssertTrue("\(error)".contains("line 3 is not a percentile row"), "\(error)")
        }
    }

    /// The rows around `percentile` bracket `value` (to the file's printed precision, 0.1%).
    static func assertBetweenSteps(
        _ rows: [LatencyFiles.Percentile], percentile: Double, holds value: Double, _ message: String, line: UInt = #line
    ) throws {
        let after = try XCTUnwrap(rows.firstIndex { $0.percentile >= percentile - 1e-9 }, line: line)
        let low = rows[max(0, after - 1)].microseconds
        let high = rows[after].microseconds
        XCTAssertTrue(value >= low * 0.999 && value <= high * 1.001, "\(message): \(value) µs outside [\(low), \(high)]", line: line)
    }
}
