import BenchModel
import Foundation

/// Thread count and resident memory of this process, from `/proc/self/status` (Linux).
struct ProcessStatus: Sendable {
    var threads: Int
    /// Peak resident set size since start or since the last `resetPeakResidentSize()`.
    var peakResidentBytes: Int

    /// Reads `/proc/self/status`; nil where it does not exist. Costs ~20 µs.
    static func current() -> ProcessStatus? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return parse(text)
    }

    /// Parses the `Threads:` and `VmHWM:` (kB) fields of a status file.
    static func parse(_ text: String) -> ProcessStatus? {
        var threads: Int?
        var peakKB: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Threads:") {
                threads = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("VmHWM:") {
                let field = line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
                peakKB = Int(field.split(separator: " ").first ?? "")
            }
        }
        guard let threads, let peakKB else { return nil }
        return ProcessStatus(threads: threads, peakResidentBytes: peakKB * 1024)
    }

    /// Restarts the kernel's peak-RSS counter at the current RSS (`echo 5 > /proc/self/clear_refs`),
    /// so each trial reports its own peak. Returns false where the kernel refuses.
    @discardableResult
    static func resetPeakResidentSize() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }
}
