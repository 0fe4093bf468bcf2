import BenchChild
import BenchModel
import CCallgrind
import Foundation

/// Counts the instructions a trial executes, all threads together, with callgrind.
///
/// The parent starts a child under `valgrind --tool=callgrind --instr-atstart=no`; the child
/// switches instrumentation on around one trial and off after it (instrumentation is
/// process-wide, whereas callgrind's client-requested dumps and zeroing only cover the calling
/// thread), so the `totals:` line of the dump callgrind writes at exit counts exactly that
/// trial on every thread. The child reports the trial's operation count in its reply.
/// Unlike time, the count does not depend on the machine's load; how exactly it repeats
/// depends on the workload (docs/performance, "Instruction counts: how closely they repeat"). Cost: the child runs 20–100× slower.
enum InstructionCounter {
    /// Whether this process runs under callgrind (the instruction-counting child).
    static var isActive: Bool { schedbench_callgrind_available() != 0 }

    /// Runs `trial` with instrumentation on. Only once per process: the dump callgrind
    /// writes at exit covers every instrumented region.
    static func instrument(_ trial: () throws -> TrialOutcome) throws -> TrialOutcome {
        guard isActive else { throw BenchError.caseCannotRun("counting instructions needs the process to run under callgrind") }
        // The main thread's last steps after serving a block would otherwise land in the
        // count or not, depending on how the threads were scheduled.
        MainThreadDriver.waitUntilMainThreadIsIdle(timeout: 2)
        schedbench_callgrind_begin()
        defer { schedbench_callgrind_end() }
        return try trial()
    }

    /// The instructions counted on every thread, from the `totals:` line of the dump a
    /// child wrote to `output` when it exited.
    static func instructions(inDump output: String) throws -> UInt64 {
        let text: String
        do { text = try String(contentsOfFile: output, encoding: .utf8) } catch {
            throw BenchError.unreadable(
                path: output, problem: "no callgrind output: \(FileProblem.describe(error, at: URL(fileURLWithPath: output)))")
        }
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }),
            let instructions = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) })
        else { throw BenchError.unreadable(path: output, problem: "callgrind output has no totals line") }
        return instructions
    }

    /// `valgrind` on `PATH`, if installed.
    static func findValgrind() -> String? { ExecutableSearch.onPath("valgrind") }

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
        do { try strip.run() } catch { throw BenchError.toolMissing("cannot run strip (binutils) to prepare \(executable) for valgrind: \(error)") }
        strip.waitUntilExit()
        guard strip.terminationStatus == 0 else {
            throw BenchError.toolMissing("strip --strip-debug \(executable) failed with status \(strip.terminationStatus)")
        }
        return copy
    }

    /// Arguments for `valgrind` that run `executable arguments…` with instrumentation off
    /// until the child asks for it, writing the dump to `output`.
    static func valgrindArguments(output: String, executable: String, arguments: [String]) -> [String] {
        ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(output)", "--quiet", executable] + arguments
    }
}
