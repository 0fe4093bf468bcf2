import Foundation
import XCTest

@testable import SchedulerBench

/// The counting child's allocator settings are ones jemalloc takes.
final class InstructionCounterTests: XCTestCase {
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
