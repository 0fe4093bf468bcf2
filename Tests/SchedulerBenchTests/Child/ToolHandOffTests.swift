import Foundation
import XCTest

@testable import SchedulerBench

/// Where a user's executable looks for the tool to build it beside itself: only in a
/// package's SwiftPM build directory, found through the link SwiftPM makes too.
final class ToolHandOffTests: XCTestCase {
    func testAnExecutableInAPackagesBuildDirectoryKnowsItsPackageScratchAndConfiguration() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        let scratch = package.appendingPathComponent(".build")
        let release = scratch.appendingPathComponent("x86_64-unknown-linux-gnu/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try Data().write(to: package.appendingPathComponent("Package.swift"))
        try Data("{}".utf8).write(to: scratch.appendingPathComponent("workspace-state.json"))
        try Data().write(to: release.appendingPathComponent("MyBench"))
        try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent("release"), withDestinationURL: release)

        for path in [release.appendingPathComponent("MyBench").path, scratch.appendingPathComponent("release/MyBench").path] {
            let location = try XCTUnwrap(ToolHandOff.buildLocation(of: path), path)
            XCTAssertEqual(location.package.standardizedFileURL.path, package.resolvingSymlinksInPath().standardizedFileURL.path)
            XCTAssertEqual(location.scratch.lastPathComponent, ".build")
            XCTAssertEqual(location.configuration, "release")
        }
    }

    func testAnExecutableElsewhereHasNoBuildLocation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-\(UUID().uuidString)/release")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data().write(to: directory.appendingPathComponent("MyBench"))
        XCTAssertNil(ToolHandOff.buildLocation(of: directory.appendingPathComponent("MyBench").path), "no SwiftPM workspace state above it")
        XCTAssertNil(ToolHandOff.buildLocation(of: "/usr/local/bin/MyBench"))
    }
}
