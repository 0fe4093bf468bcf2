import Foundation
import XCTest

@testable import SchedulerBench

/// The counting child's allocator settings are ones jemalloc takes, and the parent reads
/// each trial's count from the child's dumps.
final class InstructionCounterTests: XCTestCase {
    /// An attempt thrown away leaves a dump that the next attempt at the same trial
    /// supersedes, so the latest dump of a label is the trial's count; dumps are numbered
    /// from 1, so the tenth comes after the second, not between the first and the second.
    /// A trial's after-settling dump adds to the count of the dump before it. The dumps that
    /// start each count hold the child's work between counts and are left out.
    func testTheLatestDumpOfATrialCountsAndItsAfterSettlingDumpAddsToIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dumps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("callgrind.out").path
        let trial0 = InstructionCounter.label(trial: 0)
        let trial1 = InstructionCounter.label(trial: 1)
        let start = InstructionCounter.windowStartLabel
        // As a child writes them: each count opens with a window-start dump, including the
        // after-settling count between a trial's dump and its after-settling dump.
        let dumps: [(Int, String, UInt64)] = [
            (1, start, 88_000), (2, trial0, 1_431_100), (3, start, 91_000), (4, trial0, 1_000_000), (5, start, 70_000),
            (6, trial0 + InstructionCounter.afterSettlingSuffix, 2_500), (7, trial1, 7_000), (8, trial1, 9_999), (9, trial1, 5_000),
            (10, trial0, 42), (11, trial0, 43), (12, trial0, 44), (13, start, 65_000), (14, trial1, 6_000), (15, start, 77_000),
        ]
        for (number, label, instructions) in dumps {
            let text = "version: 1\ncreator: callgrind-3.19.0\ndesc: Trigger: Client Request: \(label)\n\nevents: Ir\ntotals: \(instructions)\n"
            try text.write(toFile: "\(output).\(number)", atomically: true, encoding: .utf8)
        }
        try "desc: Trigger: Program termination\ntotals: 99999999\n".write(toFile: output, atomically: true, encoding: .utf8)
        let counts = try InstructionCounter.counts(inDumpsOf: output)
        XCTAssertEqual(counts, [trial0: 44, trial1: 6_000], "the after-settling dump belonged to an attempt superseded later")
        try "desc: Trigger: Client Request: \(trial1 + InstructionCounter.afterSettlingSuffix)\ntotals: 500\n".write(
            toFile: "\(output).16", atomically: true, encoding: .utf8)
        XCTAssertEqual(try InstructionCounter.counts(inDumpsOf: output), [trial0: 44, trial1: 6_500])
        // A window-start dump is read no further than its header: past it, this one has no
        // totals line, which a dump that counts must have.
        let body = String(repeating: "fn=(1) f\n1 2\n", count: InstructionCounter.headerBytes / 8)
        try "desc: Trigger: Client Request: \(start)\n\nevents: Ir\n\(body)".write(toFile: "\(output).17", atomically: true, encoding: .utf8)
        XCTAssertEqual(try InstructionCounter.counts(inDumpsOf: output), [trial0: 44, trial1: 6_500])
        try "desc: Trigger: Client Request: \(trial0)\n\nevents: Ir\n\(body)".write(toFile: "\(output).18", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try InstructionCounter.counts(inDumpsOf: output), "a trial's dump without a totals line")
    }

    /// jemalloc ignores a setting it cannot parse, with a warning: the child environment's
    /// `MALLOC_CONF`, given to a process that loads the jemalloc this test process uses,
    /// must show both decays switched off in jemalloc's own statistics. The library is
    /// the one the dynamic linker finds (`ldconfig -p`), which the builds link.
    func testTheCountingChildsAllocatorSettingsSwitchPurgingOff() throws {
        let ldconfig = Process()
        ldconfig.executableURL = URL(fileURLWithPath: "/sbin/ldconfig")
        ldconfig.arguments = ["-p"]
        let listing = Pipe()
        ldconfig.standardOutput = listing
        try ldconfig.run()
        let libraries = String(decoding: listing.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldconfig.waitUntilExit()
        let line = try XCTUnwrap(
            libraries.split(separator: "\n").first { $0.contains("libjemalloc.so.2") }, "the builds link jemalloc: it is installed")
        let library = try XCTUnwrap(line.split(separator: " ").last)
        let conf = try XCTUnwrap(InstructionCounter.childEnvironment["MALLOC_CONF"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        process.environment = ["LD_PRELOAD": String(library), "MALLOC_CONF": conf + ",stats_print:true"]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertFalse(text.contains("Invalid conf"), text)
        XCTAssertTrue(text.contains("opt.dirty_decay_ms: -1"), "jemalloc's statistics: \(text.prefix(2_000))")
        XCTAssertTrue(text.contains("opt.muzzy_decay_ms: -1"))
    }
}
