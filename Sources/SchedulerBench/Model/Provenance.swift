import Foundation

/// Where and how a run was made: the provenance columns on every CSV row.
public struct Provenance: Codable, Sendable, Equatable {
    public var runID: String
    public var timestamp: String
    public var host: String
    public var cpu: String
    public var cores: Int
    public var os: String
    public var swift: String
    public var commit: String
    public var build: String

    public static let columns = ["run_id", "timestamp", "host", "cpu", "cores", "os", "swift", "commit", "build"]

    public var columnValues: [String] {
        [runID, timestamp, host, cpu, String(cores), os, swift, commit, build]
    }

    public init(runID: String, timestamp: String, host: String, cpu: String, cores: Int, os: String, swift: String, commit: String, build: String) {
        self.runID = runID
        self.timestamp = timestamp
        self.host = host
        self.cpu = cpu
        self.cores = cores
        self.os = os
        self.swift = swift
        self.commit = commit
        self.build = build
    }

    /// Reads this machine and process. `commit` comes from `SCHEDBENCH_COMMIT` if set,
    /// else from `git` in the working directory ("-dirty" when it has changes), else "unknown".
    public static func current(date: Date = Date()) -> Provenance {
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withInternetDateTime]
        let compact = DateFormatter()
        compact.locale = Locale(identifier: "en_US_POSIX")
        compact.timeZone = TimeZone(identifier: "UTC")
        compact.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let suffix = String(UInt32.random(in: 0...0xFFFF), radix: 16)
        return Provenance(
            runID: "\(compact.string(from: date))-\(suffix)",
            timestamp: stamp.string(from: date),
            host: ProcessInfo.processInfo.hostName,
            cpu: cpuModel(),
            cores: ProcessInfo.processInfo.activeProcessorCount,
            os: operatingSystem(),
            swift: compilerVersion,
            commit: commit(),
            build: buildConfiguration
        )
    }

    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    /// The compiler that built this binary (to the patch level for 6.1 … 6.4).
    public static var compilerVersion: String {
        #if compiler(>=6.5)
        return ">=6.5"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3.2)
        return "6.3.2"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #else
        return "6.1"
        #endif
    }

    static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    static func operatingSystem() -> String {
        var name = "Linux"
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        var system = utsname()
        uname(&system)
        let kernel = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(name) (kernel \(kernel))"
    }

    static func commit() -> String {
        if let given = ProcessInfo.processInfo.environment["SCHEDBENCH_COMMIT"], !given.isEmpty { return given }
        guard let head = git(["rev-parse", "--short=12", "HEAD"]), !head.isEmpty else { return "unknown" }
        let dirty = git(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return dirty ? head + "-dirty" : head
    }

    private static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
