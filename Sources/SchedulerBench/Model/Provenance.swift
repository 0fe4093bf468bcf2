import Foundation

/// Where and how a run was made: the provenance columns on every CSV row.
///
/// Part of it is the run's *testbed*: what a measurement depends on besides the code —
/// CPU model, cores, kernel, Swift, build configuration, CPU frequency governor and cgroup
/// CPU limit (`testbed`). Runs on different testbeds can differ by 2× with the same code, so
/// `compare` warns when they differ (`testbedDifferences(from:)`). The load average at the
/// start is recorded too, but is not part of the testbed: it says whether the machine was
/// busy, not what it is.
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
    /// The kernel release (`uname -r`).
    public var kernel: String
    /// cpu0's frequency scaling governor (`performance`, `powersave`, …), or `none` where
    /// the kernel exposes no frequency scaling (most VMs).
    public var governor: String
    /// The cgroup's CPU limit in cores (`1.50`), or `none`.
    public var cpuLimit: String
    /// The 1-minute load average when the run started.
    public var loadAverage: String

    /// A value this run's files do not record (they were written before it was).
    public static let unrecorded = "unrecorded"

    public static let columns = [
        "run_id", "timestamp", "host", "cpu", "cores", "os", "swift", "commit", "build", "kernel", "governor", "cpu_limit", "load_avg",
    ]
    /// The columns every results file has; the later ones are read as `unrecorded` when missing.
    public static let requiredColumns = Array(columns.prefix(9))

    public var columnValues: [String] {
        [runID, timestamp, host, cpu, String(cores), os, swift, commit, build, kernel, governor, cpuLimit, loadAverage]
    }

    public init(
        runID: String, timestamp: String, host: String, cpu: String, cores: Int, os: String, swift: String, commit: String, build: String,
        kernel: String = Provenance.unrecorded, governor: String = Provenance.unrecorded, cpuLimit: String = Provenance.unrecorded,
        loadAverage: String = Provenance.unrecorded
    ) {
        self.runID = runID
        self.timestamp = timestamp
        self.host = host
        self.cpu = cpu
        self.cores = cores
        self.os = os
        self.swift = swift
        self.commit = commit
        self.build = build
        self.kernel = kernel
        self.governor = governor
        self.cpuLimit = cpuLimit
        self.loadAverage = loadAverage
    }

    private enum CodingKeys: String, CodingKey {
        case runID, timestamp, host, cpu, cores, os, swift, commit, build, kernel, governor, cpuLimit, loadAverage
    }

    /// Decodes what a child of a build from before the testbed fields sends too (the child
    /// protocol's version did not change): their values are then `unrecorded`.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            runID: try values.decode(String.self, forKey: .runID), timestamp: try values.decode(String.self, forKey: .timestamp),
            host: try values.decode(String.self, forKey: .host), cpu: try values.decode(String.self, forKey: .cpu),
            cores: try values.decode(Int.self, forKey: .cores), os: try values.decode(String.self, forKey: .os),
            swift: try values.decode(String.self, forKey: .swift), commit: try values.decode(String.self, forKey: .commit),
            build: try values.decode(String.self, forKey: .build),
            kernel: try values.decodeIfPresent(String.self, forKey: .kernel) ?? Self.unrecorded,
            governor: try values.decodeIfPresent(String.self, forKey: .governor) ?? Self.unrecorded,
            cpuLimit: try values.decodeIfPresent(String.self, forKey: .cpuLimit) ?? Self.unrecorded,
            loadAverage: try values.decodeIfPresent(String.self, forKey: .loadAverage) ?? Self.unrecorded)
    }

    /// The testbed: the columns a measurement depends on besides the code, by column name.
    public var testbed: [(column: String, value: String)] {
        [
            ("cpu", cpu), ("cores", String(cores)), ("kernel", kernel), ("swift", swift), ("build", build),
            ("governor", governor), ("cpu_limit", cpuLimit),
        ]
    }

    /// The testbed in one text (`cpu=…; cores=2; kernel=…; …`): runs compare in a history
    /// only when theirs are equal.
    var testbedKey: String {
        testbed.map { "\($0.column)=\($0.value)" }.joined(separator: "; ")
    }

    /// Whether every testbed column was recorded. A run from before the fingerprint was added
    /// matches nothing in a history: nothing says it ran on the same kind of machine.
    public var testbedIsRecorded: Bool {
        !testbed.contains { $0.value == Self.unrecorded }
    }

    /// How `new`'s testbed differs from this one (BASE), one phrase per column
    /// (`cpu 'A' vs 'B'`); a column a side does not record is a difference too (nothing says
    /// they match).
    public func testbedDifferences(from new: Provenance) -> [String] {
        zip(testbed, new.testbed).compactMap { base, new in
            switch (base.value == Self.unrecorded, new.value == Self.unrecorded) {
            case (true, true): return "\(base.column) recorded by neither run"
            case (true, false): return "\(base.column) not recorded by BASE"
            case (false, true): return "\(base.column) not recorded by NEW"
            case (false, false): return base.value == new.value ? nil : "\(base.column) '\(base.value)' vs '\(new.value)'"
            }
        }
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
        // Zero-padded: every run id of one second has the same length and sorts as it reads.
        let suffix = String(format: "%04x", UInt32.random(in: 0...0xFFFF))
        return Provenance(
            runID: "\(compact.string(from: date))-\(suffix)",
            timestamp: stamp.string(from: date),
            host: ProcessInfo.processInfo.hostName,
            cpu: cpuModel(),
            cores: ProcessInfo.processInfo.activeProcessorCount,
            os: operatingSystem(),
            swift: compilerVersion,
            commit: commit(),
            build: buildConfiguration,
            kernel: kernelRelease(),
            governor: frequencyGovernor(),
            cpuLimit: cgroupCPULimit(),
            loadAverage: oneMinuteLoad()
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
        return "\(name) (kernel \(kernelRelease()))"
    }

    static func kernelRelease() -> String {
        var system = utsname()
        uname(&system)
        return withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func frequencyGovernor(root: String = "/sys/devices/system/cpu") -> String {
        let file = "\(root)/cpu0/cpufreq/scaling_governor"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            return FileManager.default.fileExists(atPath: "\(root)/cpu0/cpufreq") ? "unreadable" : "none"
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// cgroup v2's `cpu.max` (`quota period`, or `max`), else cgroup v1's CFS quota and period.
    static func cgroupCPULimit(root: String = "/sys/fs/cgroup") -> String {
        func read(_ path: String) -> String? {
            (try? String(contentsOfFile: "\(root)/\(path)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func cores(_ quota: String, _ period: String) -> String {
            guard let quota = Double(quota), let period = Double(period), quota > 0, period > 0 else { return "none" }
            return String(format: "%.2f", quota / period)
        }
        if let max = read("cpu.max") {
            let fields = max.split(separator: " ").map(String.init)
            return fields.count == 2 ? cores(fields[0], fields[1]) : "none"
        }
        if let quota = read("cpu/cpu.cfs_quota_us") ?? read("cpu,cpuacct/cpu.cfs_quota_us"),
            let period = read("cpu/cpu.cfs_period_us") ?? read("cpu,cpuacct/cpu.cfs_period_us")
        {
            return cores(quota, period)
        }
        return "none"
    }

    static func oneMinuteLoad() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8), let first = text.split(separator: " ").first else {
            return "unreadable"
        }
        return String(first)
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
