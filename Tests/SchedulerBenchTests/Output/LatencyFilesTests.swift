import Foundation
import XCTest

@testable import SchedulerBench

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
}
