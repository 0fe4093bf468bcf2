import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel

/// `run --processes K`: one value per process, and `compare` saying what a run in one
/// process cannot know.
final class ProcessesTests: SchedBenchTestCase {
    private let plan = [
        "run", "--suite", "quick", "--workload", "trampoline.nested,observeOn.latency", "--scheduler", "currentThread,serial",
        "--strategy", "none,drain", "--producers", "1", "--events", "300", "--rate", "20000", "--warmup", "0", "--trials", "2",
        "--quiet", "--no-table",
    ]

    func testEachProcessIsOneTrialOfEveryCase() throws {
        let out = try temporaryDirectory()
        let run = try schedbench(plan + ["--processes", "3", "--out", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let cases = try ResultsFiles.read(out.path).cases
        XCTAssertEqual(cases.map(\.benchCase.workload.rawValue), ["observeOn.latency", "trampoline.nested"], "in plan order")
        for result in cases {
            XCTAssertEqual(result.trials.map(\.trial), [1, 2, 3], "\(result.benchCase): one trial a process")
            XCTAssertNotNil(result.trials.first?.metrics[.allocsPerEvent], "each process counts allocations too")
        }
        let summary = try CSVFile.read(out.appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader)
        XCTAssertEqual(summary.map { $0["trials"]! }, ["3", "3"])
        XCTAssertEqual(try RunStatus.read(in: out), RunStatus(planned: 2, finished: 2, processes: 3, processesFinished: 3))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("latency").path),
            ["observeOn.latency-serial-drain-p1-n300-rate20000.hgrm"])

        XCTAssertEqual(try schedbench(plan + ["--processes", "0", "--out", out.path]).status, 64)
        let gate = try schedbench(["gate", "--baseline", builtIns.path, "--candidate", builtIns.path, "--", "--suite", "quick", "--processes", "2"])
        XCTAssertEqual(gate.status, 64, gate.stderr)
    }

    func testCompareSaysWhatARunInOneProcessCannotKnow() throws {
        let parent = try temporaryDirectory()
        func made(_ name: String, processes: Int) throws -> String {
            let out = parent.appendingPathComponent(name)
            let run = try schedbench(plan + ["--processes", String(processes), "--out", out.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            return out.path
        }
        let (single1, single2) = (try made("s1", processes: 1), try made("s2", processes: 1))
        let (many1, many2) = (try made("m1", processes: 3), try made("m2", processes: 3))
        let one = "each ran in one process: their intervals hold the spread of trials inside a process"
        let mixed = "BASE ran in 1 process(es) and NEW in 3"
        let singles = try schedbench(["compare", single1, single2])
        XCTAssertTrue(singles.stderr.contains(one), singles.stderr)
        let manys = try schedbench(["compare", many1, "\(many2)/results.csv"])
        XCTAssertFalse(manys.stderr.contains(one) || manys.stderr.contains(mixed), manys.stderr)
        let both = try schedbench(["compare", single1, many2])
        XCTAssertTrue(both.stderr.contains(mixed), both.stderr)
    }

    /// Shards of a run in several processes merge into one run in that many processes;
    /// a shard whose processes did not all finish, and shards made with different
    /// `--processes`, do not merge.
    func testShardsInSeveralProcessesMergeIntoOneRunInThatMany() throws {
        let parent = try temporaryDirectory()
        func shard(_ index: Int, processes: Int) throws -> String {
            let out = parent.appendingPathComponent("shard\(index)-p\(processes)")
            let run = try schedbench(plan + ["--processes", String(processes), "--shard", "\(index)/2", "--out", out.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            return out.path
        }
        let (first, second) = (try shard(1, processes: 2), try shard(2, processes: 2))
        let merged = parent.appendingPathComponent("merged")
        let merge = try schedbench(["merge", first, second, "--out", merged.path])
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertEqual(try RunStatus.read(in: merged), RunStatus(planned: 2, finished: 2, processes: 2, processesFinished: 2))
        for result in try ResultsFiles.read(merged.path).cases {
            XCTAssertEqual(result.trials.map(\.trial), [1, 2], "\(result.benchCase): one trial a process")
        }
        let compare = try schedbench(["compare", merged.path, merged.path])
        XCTAssertFalse(compare.stderr.contains("process"), compare.stderr)

        // A shard whose run stopped after its first process: every case, not every process.
        let stopped = URL(fileURLWithPath: second)
        try RunStatus(planned: 1, finished: 1, processes: 2, processesFinished: 1).write(to: stopped)
        let unfinished = try schedbench(["merge", first, second, "--out", parent.appendingPathComponent("unfinished").path])
        XCTAssertEqual(unfinished.status, 1, unfinished.stderr)
        XCTAssertTrue(unfinished.stderr.contains("is incomplete: 1 of 2 processes finished"), unfinished.stderr)

        let mixed = try schedbench(["merge", first, try shard(2, processes: 1), "--out", parent.appendingPathComponent("mixed").path])
        XCTAssertEqual(mixed.status, 1, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("ran every case in 1 process(es) and"), mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("make every shard with the same --processes"), mixed.stderr)
    }
}
