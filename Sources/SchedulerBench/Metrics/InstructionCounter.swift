import BenchChild
import BenchModel
import CCallgrind
import Foundation

/// Counts the instructions trials execute, all threads together, with callgrind.
///
/// The parent starts a child under `valgrind --tool=callgrind --instr-atstart=no` for a
/// batch of trials (`CaseIsolation`: one kept to each processor), so valgrind's start-up
/// (seconds) is paid once a child. The child switches instrumentation on before its first
/// trial and leaves it on: callgrind discards every translated block when instrumentation
/// changes, so switching it on and off around each trial made each trial translate its
/// code again (docs/performance/journal.md, 2026-11-30, late morning). Before each trial
/// the child has callgrind write out what came before and sets the counts to zero
/// (`openWindow`); right after it, it has callgrind write a dump labelled for that trial
/// (`schedbench_callgrind_dump`): with callgrind's default `--separate-threads=no` a
/// client-requested dump covers every thread. The parent reads
/// each dump's `totals:` line by its label, the latest dump of a label winning
/// (`counts(inDumpsOf:)`); the child reports each trial's operations in its reply. Unlike
/// time, the count does not depend on the machine's load; how exactly it repeats depends
/// on the workload (docs/performance, "Instruction counts: how closely they repeat").
/// Cost: the child runs 20–100× slower.
enum InstructionCounter {
    /// Whether this process runs under callgrind (the instruction-counting child).
    static var isActive: Bool { schedbench_callgrind_available() != 0 }

    /// Attempts at a trial during which no thread of the process exits and, for a trial
    /// shorter than `eventLoopInterval`, libdispatch's manager thread does not run.
    static let attempts = 3

    /// The interval of libdispatch's worker pool monitor, in nanoseconds: one second.
    static let eventLoopInterval: UInt64 = 1_000_000_000

    /// Runs `trial` with the counts zeroed and has callgrind write them to a dump labelled
    /// `label` as soon as it returns; `settle` runs after each attempt (the trial's
    /// teardown). `afterSettling` runs after the settle of the attempt that counts, with
    /// the counts zeroed again, into a dump of its own that the parent adds to the
    /// trial's (`afterSettlingSuffix`): work counted while the trial's threads are idle,
    /// so that no other thread of the trial runs beside it (the validation slowdown's
    /// counted spin; `nil` for none).
    ///
    /// A thread that exits while the trial is counted adds its exit to the count (its
    /// thread-local destructors, the allocator flushing its cache: tens of thousands of
    /// instructions under valgrind). In a child that counts many cases, idle threads of
    /// earlier cases may exit at moments that depend on the clock. An A/A gate counted the
    /// trampoline at 116 instructions an event on one side and 132 and 139 on the other;
    /// with this check the next one counted 116 on both (whether an exit caused the first
    /// was not confirmed). So when a thread that was there before the trial is gone after
    /// it, the attempt is thrown away (its dump is superseded by the next attempt's) and
    /// the trial runs again, up to `attempts` times; the last attempt counts whatever
    /// happened. Threads the trial starts and joins itself are not in the set before it.
    /// The set after the trial is read once the trial's threads have settled, so that a
    /// thread whose exit began inside the trial and ended after it is caught too.
    ///
    /// An attempt is also thrown away when libdispatch's manager thread ran during it
    /// (`EventLoopThreads`): once a second it runs the worker pool's monitor, which counts
    /// about 1,400 instructions. The trampoline counted 120.0000 instructions an event in
    /// 24 of 28 counts and 733 or about 1,420 instructions more in one trial of the other
    /// four; a dump of such a trial, diffed by function against a plain one, held exactly
    /// the monitor's wake-up (docs/performance/journal.md, 2026-11-30). Only an attempt
    /// shorter than the monitor's interval (`eventLoopInterval`) is run again: the next
    /// attempt starts soon after the wake-up, so a trial of well under a second fits
    /// before the next one, and a trial longer than a second could not avoid one. Every
    /// attempt starts only once that thread is back in its wait (`EventLoopThreads.idle`,
    /// at most 2 s), so that it does not count the end of a wake-up.
    static func instrument(
        label: String, settle: () -> Void, afterSettling: ((TrialOutcome) -> Void)? = nil, _ trial: () throws -> TrialOutcome
    ) throws -> TrialOutcome {
        guard isActive else { throw BenchError.caseCannotRun("counting instructions needs the process to run under callgrind") }
        _ = instrumentationStarted
        for attempt in 1...attempts {
            // The main thread's last steps after serving a block would otherwise land in the
            // count or not, depending on how the threads were scheduled.
            MainThreadDriver.waitUntilMainThreadIsIdle(timeout: 2)
            let before = Set(CPUClock.threadIDs())
            let eventLoops = EventLoopThreads.idle(timeout: 2)
            openWindow()
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = try trial()
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            label.withCString { schedbench_callgrind_dump($0) }
            let eventLoopRan = eventLoops.anyRan
            settle()
            let after = Set(CPUClock.threadIDs())
            if keeps(attempt: attempt, threadExited: !before.isSubset(of: after), eventLoopRan: eventLoopRan, elapsed: elapsed) {
                if let afterSettling {
                    openWindow()
                    afterSettling(outcome)
                    (label + afterSettlingSuffix).withCString { schedbench_callgrind_dump($0) }
                }
                return outcome
            }
        }
        preconditionFailure("the last attempt returns")
    }

    /// Starts a count: a dump labelled `windowStartLabel`, then the counts set to zero.
    ///
    /// callgrind's zero request (which it carries out for the calling thread only) leaves
    /// some of the work other threads did since the last dump in place, to be written into
    /// the next dump; a dump takes all of it. With the zero alone, the trampoline's trial of
    /// 2,000 events, counted in a 50-case child after `observe(on:)` cases, held 4,425
    /// instructions of a libdispatch worker on its way into its wait
    /// (`_dispatch_worker_thread`, `dispatch_time`, `dispatch_semaphore_wait`) that its
    /// trial of 10,000 events did not: it counted 119.49 instructions an event there and
    /// 120.035 alone. With this dump first it counts 120.0000 in the run and 120.0005 alone
    /// (docs/performance/journal.md, 2026-12-02, later). Cost: one more dump a count, which
    /// the parent reads no further than its header (`dump(at:)`).
    private static func openWindow() {
        windowStartLabel.withCString { schedbench_callgrind_dump($0) }
        schedbench_callgrind_zero()
    }

    /// The label of the dump that starts each count (`openWindow`), which
    /// `counts(inDumpsOf:)` leaves out: it holds the child's work between counts.
    static let windowStartLabel = "schedbench-window-start"

    /// Switches instrumentation on for the rest of the process, once, before its first trial.
    private static let instrumentationStarted: Void = schedbench_callgrind_begin()

    /// Whether the `attempt`th attempt at a trial counts: the last one always does; an
    /// earlier one does unless a thread exited during it, or the event loop thread ran
    /// during an attempt shorter than `eventLoopInterval` (`elapsed`, in nanoseconds).
    static func keeps(attempt: Int, threadExited: Bool, eventLoopRan: Bool, elapsed: UInt64) -> Bool {
        attempt >= attempts || !(threadExited || (eventLoopRan && elapsed < eventLoopInterval))
    }

    /// Variables the counting child runs with: jemalloc's time-based purging of unused
    /// pages switched off (`dirty_decay_ms` and `muzzy_decay_ms` at -1). Purging runs on
    /// an allocating thread when enough time has passed since the last, so whether a trial
    /// pays for it depended on the clock: one trampoline trial counted 75,661 jemalloc
    /// instructions more than the same trial in the other processes. The child lives for
    /// one batch, so the pages it keeps are freed at its exit.
    static let childEnvironment = ["MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1"]

    /// The end of the label of the dump that holds a trial's `afterSettling` work, which
    /// `counts(inDumpsOf:)` adds to the trial's own.
    static let afterSettlingSuffix = "-after-settling"

    /// The label of the dump of the `index`th trial of a counting request.
    static func label(trial index: Int) -> String { "schedbench-trial-\(index)" }

    /// The instructions counted on every thread in each labelled dump a child wrote beside
    /// `output` (its `--callgrind-out-file`: the dumps are `output.1`, `output.2`, …), by
    /// label. Where a label was dumped more than once (an attempt thrown away, then the one
    /// that counts), the latest dump wins; a dump labelled with `afterSettlingSuffix` is
    /// added to the latest dump of its trial. The dumps that start a count
    /// (`windowStartLabel`) and the one written at exit (`output` itself) hold the child's
    /// own work between counts and are left out.
    static func counts(inDumpsOf output: String) throws -> [String: UInt64] {
        let url = URL(fileURLWithPath: output)
        let directory = url.deletingLastPathComponent()
        let prefix = url.lastPathComponent + "."
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            throw BenchError.unreadable(path: directory.path, problem: FileProblem.describe(error, at: directory))
        }
        let numbered = names.compactMap { name in name.hasPrefix(prefix) ? Int(name.dropFirst(prefix.count)).map { ($0, name) } : nil }
        var counts: [String: UInt64] = [:]
        var afterSettling: [String: UInt64] = [:]
        for (_, name) in numbered.sorted(by: { $0.0 < $1.0 }) {
            let (label, counted) = try dump(at: directory.appendingPathComponent(name).path)
            guard let instructions = counted else { continue }
            if label.hasSuffix(afterSettlingSuffix) {
                afterSettling[String(label.dropLast(afterSettlingSuffix.count))] = instructions
            } else {
                counts[label] = instructions
                afterSettling[label] = nil
            }
        }
        return counts.merging(afterSettling) { $0 + $1 }
    }

    /// A dump's label (the end of its `desc: Trigger:` line) and its `totals:` count; the
    /// count is nil for a dump that starts a count (`windowStartLabel`), which is read no
    /// further than its first `headerBytes`. Those dumps are most of what a child writes
    /// (20 of the 32 MB one child of the `instructions` suite wrote), and only their label
    /// is needed to leave them out: reading the two children's 478 dumps took half as long
    /// so (0.82 s against 1.60 s, docs/performance/journal.md, 2026-12-02, evening).
    static func dump(at path: String) throws -> (label: String, instructions: UInt64?) {
        func unreadable(_ problem: String) -> BenchError { BenchError.unreadable(path: path, problem: problem) }
        let url = URL(fileURLWithPath: path)
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw unreadable("no callgrind output: \(FileProblem.describe(error, at: url))")
        }
        defer { try? handle.close() }
        var data: Data
        do { data = try handle.read(upToCount: headerBytes) ?? Data() } catch {
            throw unreadable("no callgrind output: \(FileProblem.describe(error, at: url))")
        }
        var header = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // Whole lines only: the last line read may be cut at `headerBytes`.
        if data.count == headerBytes { header.removeLast() }
        guard let trigger = header.first(where: { $0.hasPrefix("desc: Trigger:") }) else {
            throw unreadable("callgrind output has no trigger line in its first \(headerBytes) bytes")
        }
        let label = String(trigger.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces)
        if label == windowStartLabel { return (label, nil) }
        do { data.append(try handle.readToEnd() ?? Data()) } catch {
            throw unreadable("no callgrind output: \(FileProblem.describe(error, at: url))")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard let line = lines.last(where: { $0.hasPrefix("totals:") }) ?? lines.last(where: { $0.hasPrefix("summary:") }),
            let instructions = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) })
        else { throw unreadable("callgrind output has no totals line") }
        return (label, instructions)
    }

    /// How much of a dump `dump(at:)` reads for its label: callgrind writes the trigger
    /// line a few hundred bytes in, after the command line.
    static let headerBytes = 16 * 1024

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
    /// until the child asks for it, writing the dumps beside `output`.
    ///
    /// `--fair-sched=yes`: valgrind runs one thread at a time, and by default a thread that
    /// releases its lock may take it straight back, so a consumer that spins for a
    /// producer's next event spins for as long as the producer waits for the lock, and the
    /// count depends on how long that was. Handing the lock round in turn steadies the
    /// cross-thread cases: observe(on:) `drain` on `serial` at 20,000 events counted 713,
    /// 756 and 729 instructions an event in three runs without it, 726.6, 728.3 and 727.7
    /// with it.
    static func valgrindArguments(output: String, executable: String, arguments: [String]) -> [String] {
        ["--tool=callgrind", "--instr-atstart=no", "--fair-sched=yes", "--callgrind-out-file=\(output)", "--quiet", executable] + arguments
    }
}
