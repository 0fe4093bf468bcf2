import BenchModel
import Foundation

/// Where a run's provenance comes from: this machine (/proc, /sys, /etc/os-release,
/// uname), this process's build, and `git` in the working directory. The values it
/// reads are plain data (`Provenance`, in BenchModel); reading them is the measuring
/// layer's job. Costs a few file reads and two `git` processes: call it once per run.
extension Provenance {
    /// Reads this machine and process. `commit` comes from `SCHEDBENCH_COMMIT` if set,
    /// else from `git` in the working directory ("-dirty" when it has changes), else "unknown".
    package static func current(date: Date = Date()) -> Provenance {
        let (runID, timestamp) = runStamp(date)
        return Provenance(
            runID: runID,
            timestamp: timestamp,
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

    /// This provenance for a run starting at `date`: a fresh run id, that time, and the
    /// load average now; what it says of the build and the machine is kept.
    package func restamped(_ date: Date = Date()) -> Provenance {
        var stamped = self
        (stamped.runID, stamped.timestamp) = Self.runStamp(date)
        stamped.loadAverage = Self.oneMinuteLoad()
        return stamped
    }

    /// A run id (`20261129T001500Z-3fa2`: the second, then a random suffix) and an ISO 8601
    /// timestamp for `date`.
    private static func runStamp(_ date: Date) -> (runID: String, timestamp: String) {
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withInternetDateTime]
        let compact = DateFormatter()
        compact.locale = Locale(identifier: "en_US_POSIX")
        compact.timeZone = TimeZone(identifier: "UTC")
        compact.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        // Zero-padded: every run id of one second has the same length and sorts as it reads.
        let suffix = String(format: "%04x", UInt32.random(in: 0...0xFFFF))
        return ("\(compact.string(from: date))-\(suffix)", stamp.string(from: date))
    }

    package static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    /// The compiler that built this binary (to the patch level for 6.1 … 6.4).
    package static var compilerVersion: String {
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

    package static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    package static func operatingSystem() -> String {
        var name = "Linux"
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return "\(name) (kernel \(kernelRelease()))"
    }

    package static func kernelRelease() -> String {
        var system = utsname()
        uname(&system)
        return withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    package static func frequencyGovernor(root: String = "/sys/devices/system/cpu") -> String {
        let file = "\(root)/cpu0/cpufreq/scaling_governor"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            return FileManager.default.fileExists(atPath: "\(root)/cpu0/cpufreq") ? "unreadable" : "none"
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// cgroup v2's `cpu.max` (`quota period`, or `max`), else cgroup v1's CFS quota and period.
    package static func cgroupCPULimit(root: String = "/sys/fs/cgroup") -> String {
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

    package static func oneMinuteLoad() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8), let first = text.split(separator: " ").first else {
            return "unreadable"
        }
        return String(first)
    }

    package static func commit() -> String {
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
