import Foundation
import XCTest

@testable import SchedBenchCLI
@testable import BenchWorkflows
@testable import BenchAnalysis
@testable import BenchModel
@testable import BenchChild
import BenchTestSupport

/// The base of the tests that run the built `schedbench` binary as a user does.
class SchedBenchTestCase: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The tool `swift build` put beside the test bundle.
    var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(ToolLocation.toolName)
    }

    /// The built-ins' measuring executable beside it, which the tool drives.
    var builtIns: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(ToolLocation.builtInsName)
    }

    /// What the built-ins say they measure.
    func described() throws -> RegistryDescription {
        try MeasuringExecutable(path: builtIns.path).describe().description
    }

    /// The binary links jemalloc, which cannot run under ThreadSanitizer's allocator; the
    /// CLI is tested in the plain pass (`scripts/test.sh` runs both).
    override func setUpWithError() throws {
        if dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil {
            throw XCTSkip("schedbench links jemalloc, which cannot share a process with ThreadSanitizer")
        }
    }

    /// Runs `schedbench arguments…` (or another executable) to its end.
    func schedbench(
        _ arguments: [String], environment: [String: String] = [:], executable: URL? = nil, workingDirectory: URL? = nil
    ) throws -> Run {
        let launched = try Launched(
            executable: executable ?? self.executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory)
        let status = launched.exitStatus(within: .infinity)!
        return Run(status: status, stdout: launched.stdout, stderr: launched.stderr)
    }

    /// `schedbench arguments…` started and left running: its output is collected as it
    /// comes, for tests that act while it runs (signals, a server that dies).
    func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> Launched {
        let launched = try Launched(executable: executable, arguments: arguments, environment: environment, workingDirectory: nil)
        addTeardownBlock { launched.kill() }
        return launched
    }

    /// Live `schedbench _child` processes whose parent is `pid`.
    static func children(of pid: Int32) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { candidate in
            guard let fields = statFields(of: candidate), fields.count > 2, Int32(fields[1]) == pid, fields[0] != "Z",
                let commandLine = FileManager.default.contents(atPath: "/proc/\(candidate)/cmdline")
            else { return false }
            return String(decoding: commandLine, as: UTF8.self).split(separator: "\0").last == "_child"
        }
    }

    /// The processor time `pid` has used so far (user and system), in seconds; nil once it
    /// is gone.
    static func processorSeconds(of pid: Int32) -> Double? {
        // utime and stime are /proc's 14th and 15th fields.
        guard let fields = statFields(of: pid), fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Running (not a zombie: in a container nobody may reap it).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let fields = statFields(of: pid) else { return false }
        return fields.first != "Z"
    }

    /// `/proc/PID/stat`'s fields after the command's name (the state first, /proc's 3rd
    /// field); nil once `pid` is gone.
    private static func statFields(of pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
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

/// A running `schedbench`, its standard output and error collected as they arrive.
final class Launched: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let readers = DispatchGroup()

    init(executable: URL, arguments: [String], environment: [String: String], workingDirectory: URL?) throws {
        process.executableURL = executable
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        for (handle, isOut) in [(outPipe.fileHandleForReading, true), (errPipe.fileHandleForReading, false)] {
            readers.enter()
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    lock.withLock { if isOut { out.append(chunk) } else { err.append(chunk) } }
                }
                readers.leave()
            }
        }
    }

    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    /// Waits until `condition` holds of (stdout, stderr), for `seconds` at most; whether it did.
    @discardableResult
    func waitFor(seconds: Double, _ condition: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(stdout, stderr) { return true }
            if !process.isRunning { return condition(stdout, stderr) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(stdout, stderr)
    }

    /// Waits for the process to end, `seconds` at most: its status, nil if it still runs.
    func exitStatus(within seconds: Double) -> Int32? {
        if seconds.isInfinite { process.waitUntilExit() }
        let deadline = Date().addingTimeInterval(seconds.isInfinite ? 0 : seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        readers.wait()
        return process.terminationStatus
    }

    func signal(_ number: Int32) { Glibc.kill(process.processIdentifier, number) }

    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }
}
