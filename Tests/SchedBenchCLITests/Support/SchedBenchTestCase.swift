import Foundation
import XCTest

/// The base of the tests that run the built `schedbench` binary as a user does.
class SchedBenchTestCase: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary `swift build` put beside the test bundle.
    var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("schedbench")
    }

    /// The binary links jemalloc, which cannot run under ThreadSanitizer's allocator; the
    /// CLI is tested in the plain pass (`scripts/test.sh` runs both).
    override func setUpWithError() throws {
        if dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil {
            throw XCTSkip("schedbench links jemalloc, which cannot share a process with ThreadSanitizer")
        }
    }

    /// Runs `schedbench arguments…` (or another executable) to its end.
    func schedbench(_ arguments: [String], environment: [String: String] = [:], executable: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable ?? self.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stderr on another thread, so that neither pipe can fill while the other is read.
        let errors = ErrorsReader(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fresh directory path (not created), removed after the test.
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-cli-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// An executable shell script with `body`, removed after the test: a misbehaving
    /// build or child.
    func script(_ body: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("schedbench-script-\(UUID().uuidString).sh")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}

private final class ErrorsReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
