import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel

/// `compare --write-noise-floor` and `compare --noise-floor`: measured from A/A runs,
/// applied to two runs, and refused when misused.
final class NoiseFloorCommandTests: SchedBenchTestCase {
    private let benchCase = BenchCase(
        suite: "quick", workload: .observeOnLatency, scheduler: .none, strategy: .openCombine,
        producers: 1, events: 5_000, payloadBytes: 0, rateHz: 10_000)

    /// A run of one case in `allocations.count` processes (a trial each), as `run
    /// --processes` leaves it.
    private func writeRun(_ allocations: [Double], commit: String? = nil, processes: Int? = nil) throws -> String {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let trials = allocations.enumerated().map { index, value in
            TrialRecord(
                benchCase: benchCase, trial: index + 1,
                metrics: [.allocsPerEvent: value, .nsPerEvent: 100_000 + Double(index), .invariantViolations: 0])
        }
        var provenance = Provenance.current()
        if let commit { provenance.commit = commit }
        try ResultsFiles.write([CaseResult(benchCase: benchCase, trials: trials)], provenance: provenance, to: directory)
        let count = processes ?? allocations.count
        try RunStatus(planned: 1, finished: 1, processes: count, processesFinished: count).write(to: directory)
        return directory.path
    }

    func testAFloorFromAARunsKeepsALevelSwitchFromFailingTheComparison() throws {
        let (lower, upper) = (3.2206, 3.8206)
        let aa = [
            try writeRun([lower, upper, upper, 3.2464, 3.2506]),
            try writeRun([3.277, lower, upper, 3.2848, upper]),
            try writeRun([lower, lower, lower, lower, 3.259]),
        ]
        let file = try temporaryDirectory().path + ".json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let written = try schedbench(["compare", "--write-noise-floor", file] + aa)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertTrue(written.stdout.contains("noise floor of 3 runs"), written.stdout)
        XCTAssertTrue(written.stdout.contains("observeOn.latency/none/openCombine/p1/n5000/rate10000 allocs_per_event: 18.6%"), written.stdout)
        XCTAssertEqual(try NoiseFloor.read(file).runs, 3)

        let base = try writeRun([3.2872, lower, lower, 3.259, lower])
        let new = try writeRun([upper, upper, upper, 3.8208, upper])
        let plain = try schedbench(["compare", base, new, "--metric", "allocs_per_event"])
        XCTAssertEqual(plain.status, 2, "without the floor, the level switch is a regression: \(plain.stdout)")
        let floored = try schedbench(["compare", base, new, "--metric", "allocs_per_event", "--noise-floor", file])
        XCTAssertEqual(floored.status, 0, floored.stdout + floored.stderr)
        XCTAssertTrue(floored.stdout.contains("±18.6% (noise floor)"), floored.stdout)
        let csv = try schedbench(["compare", base, new, "--metric", "allocs_per_event", "--noise-floor", file, "--format", "csv"])
        XCTAssertTrue(csv.stdout.split(separator: "\n").first?.hasSuffix(",noise_floor") ?? false, csv.stdout)

        // A floor of other cases guards nothing, and says so.
        let elsewhere = try temporaryDirectory().path + ".json"
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        try NoiseFloor(runs: 2, floors: ["trampoline.nested/currentThread/none/p1/n1000": [.allocsPerEvent: 0.5]]).write(to: URL(fileURLWithPath: elsewhere))
        let unguarded = try schedbench(["compare", base, new, "--metric", "allocs_per_event", "--noise-floor", elsewhere])
        XCTAssertEqual(unguarded.status, 2)
        XCTAssertTrue(unguarded.stderr.contains("the noise floor has no value for any of NEW's 1 cases"), unguarded.stderr)
    }

    func testMisuseIsRefusedWithAMessageAndTheDocumentedStatus() throws {
        let one = try writeRun([3.2, 3.3])
        let file = try temporaryDirectory().path + ".json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        for (arguments, said) in [
            (["--write-noise-floor", file, one], "needs two or more runs of one build (1 given)"),
            (["--write-noise-floor", file, one, one, "--paired"], "leave out --history, --paired and --noise-floor"),
            (["--noise-floor", file, "--history", file, one], "--noise-floor is for two runs"),
        ] {
            let refused = try schedbench(["compare"] + arguments)
            XCTAssertEqual(refused.status, 64, "\(arguments): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing written on a usage error")

        let other = try writeRun([3.2, 3.3], commit: "0123456789ab")
        let mixed = try schedbench(["compare", "--write-noise-floor", file, one, other])
        XCTAssertEqual(mixed.status, 0, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("these record different commits"), mixed.stderr)

        let single = try writeRun([3.2, 3.3], processes: 1)
        let warned = try schedbench(["compare", "--write-noise-floor", file, one, single])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("ran in one process"), warned.stderr)

        try "{\"runs\": 2, \"cases\": {}, \"extra\": 1}".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try schedbench(["compare", one, one, "--noise-floor", file])
        XCTAssertEqual(bad.status, 1, bad.stderr)
        XCTAssertTrue(bad.stderr.contains(file) && bad.stderr.contains("unknown key 'extra'"), bad.stderr)
    }
}
