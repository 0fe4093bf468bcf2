import CCallgrind
import Foundation

/// Counts the instructions a trial executes, all threads together, with callgrind.
///
/// The parent starts a child under `valgrind --tool=callgrind --instr-atstart=no`; the child
/// switches instrumentation on around one trial and off after it (instrumentation is
/// process-wide, whereas callgrind's client-requested dumps and zeroing only cover the calling
/// thread), so the `totals:` line of the dump callgrind writes at exit counts exactly that
/// trial on every thread. The child also writes the trial's operation count next to the dump.
/// Unlike time, the count does not depend on the machine's load; how exactly it repeats
/// depends on the workload (README, "Instruction counts"). Cost: the child runs 20–100× slower.
public enum InstructionCounter {
    /// Environment variable through which the parent tells the child callgrind's output file.
    static let outputVariable = "SCHEDBENCH_CALLGRIND_OUT"

    /// Whether this process runs under callgrind started by `valgrindArguments`.
    public static var isActive: Bool {
        schedbench_callgrind_available() != 0 && outputFile != nil
    }

    private static var outputFile: String? {
        ProcessInfo.processInfo.environment[outputVariable]
    }

    /// Runs `trial` with instrumentation on, then records its operation count for the parent.
    /// Only once per process: the dump at exit covers every instrumented region.
    static func instrument(_ trial: () throws -> TrialOutcome) throws -> TrialOutcome {
        guard let outputFile else { throw WorkloadError("counting instructions needs the process to run under schedbench's callgrind child") }
        schedbench_callgrind_begin()
        let outcome = try trial()
        schedbench_callgrind_end()
        try String(outcome.operations).write(toFile: operationsFile(of: outputFile), atomically: true, encoding: .utf8)
        return outcome
    }

    /// What a child counted: instructions on every thread during its trial, and the
    /// trial's operations.
    struct Count {
        var instructions: UInt64
        var operations: Int
    }

    /// Reads what the child that wrote `output` counted.
    static func read(output: String) throws -> Count {
        let text = try String(contentsOfFile: output, encoding: .utf8)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }),
              let instructions = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) })
        else { throw WorkloadError("callgrind output \(output) has no totals line") }
        let operationsText = try String(contentsOfFile: operationsFile(of: output), encoding: .utf8)
        guard let operations = Int(operationsText) else {
            throw WorkloadError("\(operationsFile(of: output)) does not hold an operation count")
        }
        return Count(instructions: instructions, operations: operations)
    }

    private static func operationsFile(of output: String) -> String { output + ".operations" }

    /// `valgrind` on `PATH`, if installed.
    public static func findValgrind() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/valgrind" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A copy of `executable` without debug information, made once in `directory`: the
    /// valgrind in Debian 12 (3.19) gives up on the DWARF 5 that Swift 6 emits as soon as
    /// instrumentation starts. Symbols stay, so callgrind's dumps still name functions.
    static func strippedCopy(of executable: String, in directory: URL) throws -> String {
        let copy = directory.appendingPathComponent("schedbench-stripped").path
        if FileManager.default.isExecutableFile(atPath: copy) { return copy }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let strip = Process()
        strip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        strip.arguments = ["strip", "--strip-debug", "-o", copy, executable]
        strip.standardError = FileHandle.nullDevice
        do { try strip.run() } catch { throw WorkloadError("cannot run strip (binutils) to prepare \(executable) for valgrind: \(error)") }
        strip.waitUntilExit()
        guard strip.terminationStatus == 0 else {
            throw WorkloadError("strip --strip-debug \(executable) failed with status \(strip.terminationStatus)")
        }
        return copy
    }

    /// Arguments for `valgrind` that run `executable arguments…` with instrumentation off
    /// until the child asks for it, writing the dump to `output`.
    static func valgrindArguments(output: String, executable: String, arguments: [String]) -> [String] {
        ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(output)", "--quiet", executable] + arguments
    }
}
