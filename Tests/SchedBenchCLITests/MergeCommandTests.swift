import Foundation
import XCTest

@testable import BenchAnalysis
@testable import BenchModel

/// `run --shard`, `gate --shard` and `merge`, as a CI matrix uses them.
final class MergeCommandTests: SchedBenchTestCase {
    /// Twelve cases, four of them latency cases that leave distributions.
    private let plan = [
        "--suite", "quick", "--workload", "observeOn.throughput,trampoline.nested,main.inline,observeOn.latency",
        "--scheduler", "serial,currentThread,main", "--strategy", "drain,none,reference", "--producers", "1", "--events", "300",
        "--rate", "20000",
    ]
    private let measuring = ["--trials", "2", "--warmup", "0", "--no-allocations", "--quiet", "--no-table"]

    private func shards(of arguments: [String], count: Int, in parent: URL, extra: [String] = []) throws -> [URL] {
        try (1...count).map { index in
            let out = parent.appendingPathComponent("shard\(index)")
            let run = try schedbench(["run"] + arguments + measuring + extra + ["--shard", "\(index)/\(count)", "--out", out.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            return out
        }
    }

    private func cases(_ directory: URL) throws -> [String] {
        try CSVFile.read(directory.appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader).map { row in
            BenchCase.columns.map { row[$0]! }.joined(separator: " ")
        }
    }

    /// Case × trial × metric of every row of `results.csv`, but `cpu_ns_per_event`: a trial
    /// of a few microseconds may use no more processor time than the thread sampler beside
    /// it, and then has none, in one run and not in another.
    private func rowKeys(_ directory: URL) throws -> Set<String> {
        Set(
            try CSVFile.read(directory.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader).filter {
                $0["metric"] != Metric.cpuNsPerEvent.rawValue
            }.map { row in
                (BenchCase.columns + ["trial", "metric", "unit"]).map { row[$0]! }.joined(separator: " ")
            })
    }

    func testFourShardsMergeIntoTheRunAWholeRunWouldHaveWritten() throws {
        let parent = try temporaryDirectory()
        let whole = parent.appendingPathComponent("whole")
        let wholeRun = try schedbench(["run"] + plan + measuring + ["--out", whole.path])
        XCTAssertEqual(wholeRun.status, 0, wholeRun.stderr)
        let shards = try shards(of: plan, count: 4, in: parent)
        for shard in shards {
            XCTAssertEqual(try cases(shard).count, 3, "twelve cases in four shards")
        }

        let merged = parent.appendingPathComponent("merged")
        let history = parent.appendingPathComponent("history.sqlite")
        // Given out of order: the merge puts them in plan order.
        let merge = try schedbench(
            ["merge"] + shards.reversed().map(\.path) + ["--out", merged.path, "--report", "--history", history.path])
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertTrue(merge.stderr.contains("merge: 4 shards of a run, 12 cases"), merge.stderr)
        XCTAssertTrue(merge.stdout.contains("ns/event"), "the merged run's table is printed")

        XCTAssertEqual(try cases(merged), try cases(whole), "the same cases, in the whole run's order")
        let (mergedRows, wholeRows) = (try rowKeys(merged), try rowKeys(whole))
        XCTAssertEqual(mergedRows.count, wholeRows.count)
        XCTAssertEqual(mergedRows.symmetricDifference(wholeRows), [], "the same case × trial × metric rows")
        let latency = { (directory: URL) in
            Set(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("latency").path))
        }
        XCTAssertEqual(try latency(merged), try latency(whole))
        XCTAssertEqual(try latency(merged).count, 4)
        XCTAssertEqual(try RunStatus.read(in: merged), RunStatus(planned: 12, finished: 12))
        XCTAssertNil(try ShardFile.read(in: merged), "the merged run is whole, not a shard")
        XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent("report/index.html").path))

        let rows = try CSVFile.read(merged.appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)
        let shardRunID = try CSVFile.read(shards[0].appendingPathComponent("results.csv"), requiring: ResultsFiles.resultsHeader)[0]["run_id"]!
        XCTAssertEqual(Set(rows.map { $0["run_id"]! }), ["\(shardRunID)-merged"], "one run")
        let shardAlone = try schedbench(["history", "add", shards[0].path, "--db", history.path])
        XCTAssertEqual(shardAlone.status, 1, shardAlone.stderr)
        XCTAssertTrue(shardAlone.stderr.contains("is shard 1/4 of a run, not a whole run; `merge` its shards"), shardAlone.stderr)
        let listed = try schedbench(["history", "list", "--db", history.path])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("\(shardRunID)-merged"), listed.stdout)

        let again = try schedbench(["merge"] + shards.map(\.path) + ["--out", merged.path])
        XCTAssertEqual(again.status, 1, "results already there")
        XCTAssertTrue(again.stderr.contains("pass --overwrite"), again.stderr)
        XCTAssertEqual(try schedbench(["merge"] + shards.map(\.path) + ["--out", merged.path, "--overwrite"]).status, 0)
    }

    func testAShardMissingTwiceForeignUnfinishedOrOfAnotherBuildFailsTheMergeNamingIt() throws {
        let parent = try temporaryDirectory()
        let small = ["--suite", "quick", "--workload", "trampoline.nested,main.inline", "--scheduler", "currentThread,main", "--events", "300"]
        let shards = try shards(of: small, count: 2, in: parent)
        let other = try self.shards(of: small.map { $0 == "300" ? "400" : $0 }, count: 2, in: parent.appendingPathComponent("other"))
        let out = parent.appendingPathComponent("merged")

        func refused(_ directories: [URL], _ expected: String, status: Int32 = 1, file: StaticString = #filePath, line: UInt = #line) throws {
            let merge = try schedbench(["merge"] + directories.map(\.path) + ["--out", out.path])
            XCTAssertEqual(merge.status, status, merge.stderr, file: file, line: line)
            XCTAssertTrue(merge.stderr.contains(expected), merge.stderr, file: file, line: line)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: out.appendingPathComponent("results.csv").path), "nothing is written", file: file,
                line: line)
        }
        try refused([shards[0]], "shard 2/2 is missing (given: 1/2); a merge needs all 2")
        try refused([shards[0], shards[0]], "shard 1/2 is given twice")
        try refused([shards[0], other[1]], "are not shards of one plan")
        try refused([shards[0], parent], "\(parent.path) is not a shard: it has no shard.json")
        try refused([shards[0], parent.appendingPathComponent("nonexistent")], "is not a directory")
        try refused([], "name the shards' directories", status: 64)

        // An unfinished shard: a case failed or the run was stopped.
        let status = shards[1].appendingPathComponent(RunStatus.fileName)
        let finished = try Data(contentsOf: status)
        try Data(#"{"finished": 0, "planned": 1}"#.utf8).write(to: status)
        try refused(shards, "shard 2/2 (\(shards[1].path)) is incomplete: 0 of 1 cases finished")
        try finished.write(to: status)

        // Results that are not the shard's share.
        let results = shards[1].appendingPathComponent("results.csv")
        let written = try String(contentsOf: results, encoding: .utf8)
        try written.replacingOccurrences(of: ",300,", with: ",301,").write(to: results, atomically: true, encoding: .utf8)
        try refused(shards, "does not hold its share of the plan: 1 case(s) missing")

        // Another build.
        let commit = try CSVFile.read(results.deletingLastPathComponent().appendingPathComponent("summary.csv"), requiring: ResultsFiles.summaryHeader)[0]["commit"]!
        try written.replacingOccurrences(of: ",\(commit),", with: ",0000000,").write(to: results, atomically: true, encoding: .utf8)
        try refused(shards, "was measured by another build than shard 1/2")
        try written.write(to: results, atomically: true, encoding: .utf8)

        XCTAssertEqual(try schedbench(["merge"] + shards.map(\.path) + ["--out", out.path]).status, 0)
        let intoAShard = try schedbench(["merge"] + shards.map(\.path) + ["--out", shards[0].path])
        XCTAssertEqual(intoAShard.status, 64, intoAShard.stderr)
    }

    func testAShardOfAGateComparesNothingAndTheMergeDecidesOverEveryCase() throws {
        let parent = try temporaryDirectory()
        let selection = [
            "--", "--suite", "quick", "--workload", "trampoline.nested,main.inline", "--scheduler", "currentThread,main", "--events", "2000",
            "--warmup", "0",
        ]
        var shards: [URL] = []
        for index in 1...2 {
            let out = parent.appendingPathComponent("gate\(index)")
            let gate = try schedbench(
                ["gate", "--baseline", builtIns.path, "--candidate", builtIns.path, "--rounds", "2", "--shard", "\(index)/2", "--out", out.path]
                    + selection)
            XCTAssertEqual(gate.status, 0, gate.stderr)
            XCTAssertTrue(gate.stderr.contains("shard \(index)/2 (1 of 2 cases) ran 2 rounds"), gate.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("comparison.csv").path), "a shard decides nothing")
            shards.append(out)
        }
        let merged = parent.appendingPathComponent("merged")
        let merge = try schedbench(["merge", shards[1].path, shards[0].path, "--out", merged.path, "--metric", "allocs_per_event"])
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertTrue(merge.stderr.contains("merge: 2 shards of a gate, 2 cases"), merge.stderr)
        let comparison = try CSVFile.read(merged.appendingPathComponent("comparison.csv"), requiring: ComparisonFile.header)
        XCTAssertEqual(Set(comparison.map { $0["workload"]! }), ["trampoline.nested", "main.inline"], "one comparison over both shards' cases")
        for side in ["baseline", "candidate"] {
            XCTAssertEqual(try ResultsFiles.read(merged.appendingPathComponent(side).path).cases.map { $0.values(.nsPerEvent).count }, [2, 2])
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent("report/index.html").path))
        let withHistory = try schedbench(["merge"] + shards.map(\.path) + ["--out", merged.path, "--overwrite", "--history"])
        XCTAssertEqual(withHistory.status, 64, withHistory.stderr)

        // A shard of a gate that recounts changed instruction counts (`gate
        // --confirmation-rounds`) may hold those cases' further rounds, all of them; the
        // merged comparison decides those cases on those rounds alone (here each counting
        // twice the allocations of the first two).
        func rewrite(_ side: String, of shard: URL, _ change: ([[String: String]]) -> [[String: String]]) throws {
            let file = shard.appendingPathComponent("\(side)/results.csv")
            let rows = change(try CSVFile.read(file, requiring: ResultsFiles.resultsHeader))
            try CSVFile.write(header: ResultsFiles.resultsHeader, rows: rows.map { row in ResultsFiles.resultsHeader.map { row[$0]! } }, to: file)
        }
        var description = try XCTUnwrap(try ShardFile.read(in: shards[0]))
        description.confirmationRounds = 2
        try description.write(to: shards[0])
        for side in ["baseline", "candidate"] {
            try rewrite(side, of: shards[0]) { rows in
                rows + rows.map { row in
                    var again = row
                    again["trial"] = String(Int(row["trial"]!)! + 2)
                    if row["metric"] == "allocs_per_event" { again["value"] = String(2 * Double(row["value"]!)!) }
                    return again
                }
            }
        }
        let recounted = try schedbench(["merge"] + shards.map(\.path) + ["--out", parent.appendingPathComponent("m1").path, "--metric", "allocs_per_event"])
        XCTAssertEqual(recounted.status, 0, recounted.stderr)
        let merged4 = try CSVFile.read(parent.appendingPathComponent("m1/comparison.csv"), requiring: ComparisonFile.header)
        let recountedWorkload = try XCTUnwrap(description.cases.first?.workload.rawValue)
        XCTAssertEqual(Set(merged4.map { "\($0["workload"]!) \($0["base_trials"]!)" }).count, 2)
        for row in merged4 {
            XCTAssertEqual(row["base_trials"], "2", "\(row)")
            let before = try XCTUnwrap(comparison.first { $0["workload"] == row["workload"] })
            let factor = row["workload"] == recountedWorkload ? 2.0 : 1.0
            XCTAssertEqual(Double(row["base_median"]!)!, factor * Double(before["base_median"]!)!, accuracy: 1e-9, "\(row)")
        }
        try rewrite("candidate", of: shards[0]) { $0.filter { $0["trial"] != "4" } }
        let partly = try schedbench(["merge"] + shards.map(\.path) + ["--out", parent.appendingPathComponent("m3").path])
        XCTAssertEqual(partly.status, 1, partly.stderr)
        XCTAssertTrue(partly.stderr.contains("shard 1/2 (\(shards[0].path))'s candidate holds 3 round(s) of"), partly.stderr)
        XCTAssertTrue(partly.stderr.contains("not 2 (or 4, recounted)"), partly.stderr)
        try rewrite("candidate", of: shards[0]) { $0.filter { $0["trial"] != "3" } }

        // A gate shard that did not run every round.
        let candidate = shards[1].appendingPathComponent("candidate/results.csv")
        let rows = try CSVFile.read(candidate, requiring: ResultsFiles.resultsHeader).filter { $0["trial"] != "2" }
        try CSVFile.write(header: ResultsFiles.resultsHeader, rows: rows.map { row in ResultsFiles.resultsHeader.map { row[$0]! } }, to: candidate)
        let unfinished = try schedbench(["merge"] + shards.map(\.path) + ["--out", parent.appendingPathComponent("m2").path])
        XCTAssertEqual(unfinished.status, 1, unfinished.stderr)
        XCTAssertTrue(unfinished.stderr.contains("shard 2/2 (\(shards[1].path))'s candidate holds 1 round(s) of"), unfinished.stderr)
        XCTAssertTrue(unfinished.stderr.contains("not 2: the gate did not finish"), unfinished.stderr)
    }
}
