import BenchModel
import CProcess
import Foundation

/// Starts one child speaking the child protocol (`ChildRequest`), sends it the request,
/// forwards its events and returns its reply. The engine's only way to start a `_child`:
/// isolated cases, counting trials, gate rounds and stress scenarios all come through
/// here. (Tools the engine runs, `git` for a run's commit and `strip` before callgrind,
/// start through `Foundation.Process`: they speak no protocol.)
///
/// The child runs in a process group of its own (a Ctrl-C at the terminal reaches the
/// parent only, which decides), with SIGINT, SIGTERM and SIGPIPE at their defaults, and
/// dies with its parent (`_child` sets the parent-death signal). Its standard input is a
/// socket rather than a pipe, so a child that exits without reading the request cannot
/// kill the parent with SIGPIPE. The last bytes of its standard error are kept in
/// `standardError` (`stderrTail` unless asked for more), to explain a failure.
package struct ChildProcess {
    /// The executable: a schedbench binary, or `valgrind` with the binary among `arguments`.
    var executable: String
    /// Arguments after the executable's name; they must end in `_child`'s invocation.
    var arguments: [String]
    /// Variables added to this process's environment.
    var environment: [String: String] = [:]
    /// The name errors give the child (the schedbench binary, even when valgrind runs it).
    package var name: String
    /// The processor the child is confined to from its first instruction, with every
    /// thread it starts; nil: wherever the kernel puts it. An instruction-counting child
    /// runs under valgrind, which runs one of its threads at a time; on one processor,
    /// which of them runs next no longer depends on a thread just woken on another
    /// processor racing the one that woke it.
    package var processor: Int?
    /// The real-time priority the child, and every thread it starts, runs at under
    /// `SCHED_FIFO` (`RealTimeScheduling`); nil: the normal scheduler. A child that may not
    /// is not started (`RealTimeScheduling.refusal` says beforehand).
    package var realTimePriority: Int32?
    /// The end of what the child wrote to standard error in its last run: three lines of
    /// it explain a failure; all of it is there for a caller that keeps a crash's backtrace.
    package let standardError: TailBuffer
    static let stderrTail = 64 * 1024

    /// Runs `schedbench _child` from `binary`, keeping the last `keptStandardError` bytes of
    /// its standard error.
    package init(binary: String, environment: [String: String] = [:], keptStandardError: Int = stderrTail) {
        executable = binary
        arguments = ["_child"]
        self.environment = environment
        name = binary
        standardError = TailBuffer(limit: keptStandardError)
    }

    package init(executable: String, arguments: [String], environment: [String: String], name: String) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.name = name
        standardError = TailBuffer(limit: Self.stderrTail)
    }

    /// The running executable, as children of the same build start it: `SCHEDBENCH_SELF`
    /// when a launcher set it (a portable bundle's, scripts/bundle.sh, which runs the binary
    /// through its own loader: `/proc/self/exe` names the loader then), else the binary itself.
    package static var currentExecutable: String {
        if let launcher = ProcessInfo.processInfo.environment[selfVariable], !launcher.isEmpty { return launcher }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The environment variable a launcher sets to the path that starts this executable.
    package static let selfVariable = "SCHEDBENCH_SELF"

    /// Sends `request`, forwards the child's events to `observer`, and returns its reply.
    /// Throws `BenchError.childFailed` when the child cannot start, dies, exits without a
    /// reply, answers in another protocol version, or runs past `timeout` seconds (then it
    /// is killed with its whole process group). Throws `Interrupted` when `cancellation` is
    /// cancelled while the child runs: the child is then killed with its group (checked
    /// every 20 ms). When `stopping` is cancelled instead, the child is asked to finish
    /// early (`ChildChannel.stopSignal`, sent once) and its reply is awaited as usual.
    /// Whatever the outcome, anything left in the child's process group when it is done (a
    /// background process holding its pipes) is killed too. With `idleTimeout`, the child
    /// is killed the same way when it sends nothing (no event, no reply) for that long: a
    /// child that measures many cases reports each trial, so silence means it is stuck. A
    /// failure the child reports as a usage error is thrown as is (`BenchError.usage`).
    package func run(
        _ request: ChildRequest, observer: any BenchObserver = SilentObserver(), timeout: TimeInterval? = nil,
        idleTimeout: TimeInterval? = nil, cancellation: CancellationToken? = nil, stopping: CancellationToken? = nil
    ) throws -> ChildReply {
        let requestData = try ChildMessage.encoder().encode(request)
        let requestChannel = try Self.socketPair()
        let replyPipe = try Self.pipe()
        let errorPipe = try Self.pipe()

        let pid: pid_t
        do {
            pid = try spawn(stdin: requestChannel.read, stderr: errorPipe.write, reply: replyPipe.write)
        } catch {
            for fd in [requestChannel.read, requestChannel.write, replyPipe.read, replyPipe.write, errorPipe.read, errorPipe.write] { close(fd) }
            throw error
        }
        // The parent keeps only its own ends; a child that exits then closes the others.
        close(requestChannel.read)
        close(replyPipe.write)
        close(errorPipe.write)

        let background = DispatchGroup()
        DispatchQueue.global().async(group: background) {
            Self.writeAll(requestData, to: requestChannel.write)
            close(requestChannel.write)
        }
        let errors = standardError
        errors.reset()
        DispatchQueue.global().async(group: background) {
            Self.readAll(errorPipe.read) { chunk in
                errors.append(chunk)
                return true
            }
            close(errorPipe.read)
        }

        // The watchdog kills the group; the reads below then end.
        let watchdog = Watchdog(group: pid)
        if let timeout { watchdog.arm(after: timeout) }
        if let idleTimeout { watchdog.arm(idleFor: idleTimeout) }
        if let cancellation { watchdog.arm(until: cancellation) }
        if let stopping { watchdog.arm(asking: stopping) }

        var reply: ChildReply?
        var protocolProblem: String?
        var lines = LineSplitter()
        let decoder = ChildMessage.decoder()
        Self.readAll(replyPipe.read) { chunk in
            for line in lines.append(chunk) where protocolProblem == nil && reply == nil {
                watchdog.heard()
                do {
                    switch try decoder.decode(ChildMessage.self, from: line) {
                    case .event(let event): observer.benchEvent(event)
                    case .reply(let answer): reply = answer
                    }
                } catch {
                    protocolProblem = "sent a line that is not a child-protocol message (\(line.count) bytes): \(error)"
                }
            }
            // Once it has answered, nothing more is read: a leftover holding the pipe cannot stall us.
            return reply == nil && protocolProblem == nil
        }
        close(replyPipe.read)
        // Until it is reaped, the exited child keeps its pid and so its group's id: only
        // then may the group be killed without risk of hitting a stranger that reused them.
        Self.waitForExit(pid)
        watchdog.disarm()
        // Leftovers of its group (say, a background process still holding stderr) go with it.
        kill(-pid, SIGKILL)
        let status = Self.reap(pid)
        background.wait()

        let said = errors.crashSummary ?? errors.lastLines(3)
        func failure(_ problem: String) -> BenchError {
            .childFailed(executable: name, problem: problem + (said.isEmpty ? "" : ": \(said)"))
        }
        if watchdog.cancelled { throw Interrupted() }
        if watchdog.fired && reply == nil {
            let after = watchdog.firedIdle ? "\(Int(idleTimeout ?? 0)) s without a word" : "\(Int(timeout ?? 0)) s without a reply"
            throw failure("timed out after \(after); killed with its process group (raise --child-timeout if the work needs longer)")
        }
        if let protocolProblem { throw failure(protocolProblem) }
        guard let reply else {
            if status.signal != nil { throw failure("\(status.description) before it replied") }
            // An executable that refuses what it was started with (a seeded bug it does not
            // have, say) says so and exits with the usage status.
            if status.status == 64 {
                let said = errors.lastLines(3)
                throw BenchError.usage(said.isEmpty ? "\(name) refused the request (exit 64)" : said.hasPrefix("error: ") ? String(said.dropFirst(7)) : said)
            }
            throw failure(
                "\(status.description) without a reply (is it a schedbench build that speaks child protocol \(ChildRequest.currentVersion)?)")
        }
        if let problem = reply.failure {
            if case .usage = problem { throw problem }
            throw failure(problem.description)
        }
        guard reply.version == ChildRequest.currentVersion else {
            throw failure("speaks child protocol \(reply.version), this build \(ChildRequest.currentVersion)")
        }
        return reply
    }

    // MARK: Starting and waiting

    private func spawn(stdin: Int32, stderr: Int32, reply: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The pipes are close-on-exec; dup2 gives the child its copies without the flag.
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        posix_spawn_file_actions_adddup2(&actions, reply, ChildChannel.replyDescriptor)
        // Nothing else of the parent's: a child must not hold descriptors it has no use for
        // (someone waiting for them to close would wait for the child too).
        _ = schedbench_spawn_close_from(&actions, 4)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if let realTimePriority { flags |= RealTimeScheduling.apply(priority: realTimePriority, to: &attributes) }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        // A child's scratch lives in this process's, so removing ours removes its too. This
        // process's launcher path is not the child's: a launcher sets it anew, a bare binary
        // must find itself.
        var inherited = ProcessInfo.processInfo.environment
        inherited[Self.selfVariable] = nil
        let variables = inherited.merging(environment) { $1 }
            .merging([ScratchSpace.environmentKey: ScratchSpace.root.path]) { $1 }
            .map { "\($0.key)=\($0.value)" }
        let argv = [executable] + arguments
        var pid: pid_t = 0
        let result = withCStrings(argv) { argvPointers in
            withCStrings(variables) { environmentPointers in
                schedbench_spawn_on_processor(
                    &pid, executable, &actions, &attributes, argvPointers, environmentPointers, processor.map { Int32(clamping: $0) } ?? -1)
            }
        }
        guard result == 0 else {
            let on = (processor.map { " on processor \($0)" } ?? "")
                + (realTimePriority.map { " under SCHED_FIFO at priority \($0)" } ?? "")
            throw BenchError.childFailed(executable: name, problem: "cannot start \(executable)\(on): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// How a child ended, in words.
    struct Termination: CustomStringConvertible {
        var status: Int32?
        var signal: Int32?
        var description: String {
            if let signal { return "killed by \(Self.signalName(signal))" }
            return "exited with status \(status ?? -1)"
        }

        static func signalName(_ signal: Int32) -> String {
            let names: [Int32: String] = [
                SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
                SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
            ]
            return names[signal] ?? "signal \(signal)"
        }
    }

    /// Waits until the child has exited, leaving it unreaped (a zombie that holds its pid).
    private static func waitForExit(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
    }

    private static func reap(_ pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // The wait-status macros are not imported: low 7 bits = terminating signal, 0 for an exit.
        let signal = status & 0x7F
        return signal == 0 ? Termination(status: (status >> 8) & 0xFF, signal: nil) : Termination(status: nil, signal: signal)
    }

    // MARK: File descriptors

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard schedbench_pipe_cloexec(&fds) == 0 else {
            throw BenchError.childFailed(executable: "pipe", problem: String(cString: strerror(errno)))
        }
        return (fds[0], fds[1])
    }

    /// The request channel: `read` becomes the child's standard input.
    private static func socketPair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard schedbench_socketpair_cloexec(&fds) == 0 else {
            throw BenchError.childFailed(executable: "socketpair", problem: String(cString: strerror(errno)))
        }
        return (fds[0], fds[1])
    }

    /// Writes everything unless the child stops reading (then EPIPE, never SIGPIPE).
    private static func writeAll(_ data: Data, to fd: Int32) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = schedbench_send_nosignal(fd, buffer.baseAddress! + offset, UInt(buffer.count - offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // the child closed its input: its reply or exit status says why
                }
                offset += written
            }
        }
    }

    /// Reads until end of file, or until `consume` returns false.
    private static func readAll(_ fd: Int32, _ consume: (Data) -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            if !consume(Data(buffer[0..<count])) { return }
        }
    }
}

/// Kills a child's process group if it is still running when the time is up, or when a
/// cancellation token is cancelled.
final class Watchdog: Sendable {
    private struct State {
        var armed = false
        var didFire = false
        var didFireIdle = false
        var watching = false
        var didCancel = false
        var lastHeard = DispatchTime.now()
    }

    private let group: pid_t
    private let state = Locked(State())

    init(group: pid_t) { self.group = group }

    func arm(after seconds: TimeInterval) {
        state.withLock { $0.armed = true }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            state.withLock { state in
                guard state.armed else { return }
                state.didFire = true
                kill(-group, SIGKILL)
            }
        }
    }

    /// Kills the group once nothing has been heard (`heard()`) for `seconds`, checking every
    /// second until `disarm`.
    func arm(idleFor seconds: TimeInterval) {
        state.withLock {
            $0.armed = true
            $0.lastHeard = .now()
        }
        DispatchQueue.global().async { [self] in
            while true {
                sleep(1)
                let done: Bool = state.withLock { state in
                    guard state.armed else { return true }
                    guard DispatchTime.now().uptimeNanoseconds - state.lastHeard.uptimeNanoseconds > UInt64(seconds * 1e9) else { return false }
                    state.didFire = true
                    state.didFireIdle = true
                    kill(-group, SIGKILL)
                    return true
                }
                if done { return }
            }
        }
    }

    /// The child said something: an idle timeout starts again.
    func heard() { state.withLock { $0.lastHeard = .now() } }

    /// Kills the group once `cancellation` is cancelled, checking every 20 ms until `disarm`.
    func arm(until cancellation: CancellationToken) {
        watch(cancellation) { [group] state in
            state.didCancel = true
            kill(-group, SIGKILL)
        }
    }

    /// Sends the group's leader (the child) `ChildChannel.stopSignal` once `stopping` is
    /// cancelled, checking every 20 ms, and again every 200 ms until `disarm`: a child that
    /// has not installed its handler yet ignores the signal (it starts with it ignored, so
    /// that an early request cannot kill it), and must still hear the request once it
    /// listens. Asking again is harmless: the handler only cancels a token.
    func arm(asking stopping: CancellationToken) {
        watch(stopping, repeatingEvery: 200_000) { [group] _ in _ = kill(group, ChildChannel.stopSignal) }
    }

    /// Runs `act` under the lock when `token` is cancelled before `disarm`: once, or with
    /// `repeatingEvery` (microseconds) again at that interval until `disarm`.
    private func watch(_ token: CancellationToken, repeatingEvery interval: UInt32? = nil, _ act: @escaping @Sendable (inout State) -> Void) {
        state.withLock { $0.watching = true }
        DispatchQueue.global().async { [self] in
            while state.withLock({ $0.watching }) {
                if token.isCancelled {
                    state.withLock { state in
                        guard state.watching else { return }
                        act(&state)
                    }
                    guard let interval else { return }
                    usleep(interval)
                } else {
                    usleep(20_000)
                }
            }
        }
    }

    /// The child has exited: the watchdog must not kill a group that may no longer be its.
    func disarm() {
        state.withLock { state in
            state.armed = false
            state.watching = false
        }
    }

    /// The time ran out and the group was killed.
    var fired: Bool { state.withLock { $0.didFire } }
    /// It fired because the child had been silent (`arm(idleFor:)`).
    var firedIdle: Bool { state.withLock { $0.didFireIdle } }
    /// The token was cancelled and the group was killed.
    var cancelled: Bool { state.withLock { $0.didCancel } }
}

/// Splits a byte stream into lines (without their newline).
struct LineSplitter {
    private var pending = Data()

    mutating func append(_ chunk: Data) -> [Data] {
        pending.append(chunk)
        var lines: [Data] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[pending.startIndex..<newline]
            if !line.isEmpty { lines.append(Data(line)) }
            pending.removeSubrange(pending.startIndex...newline)
        }
        return lines
    }
}

/// The last `limit` bytes of a stream, appended from one thread and read after it ends.
package final class TailBuffer: Sendable {
    private let limit: Int
    private let kept = Locked(Data())

    init(limit: Int) { self.limit = limit }

    func append(_ chunk: Data) {
        kept.withLock { data in
            data.append(chunk)
            // A copy, not removeFirst: a Data that drops its front keeps its storage, which
            // would grow with everything the child ever wrote.
            if data.count > 2 * limit { data = Data(data.suffix(limit)) }
        }
    }

    func reset() { kept.withLock { $0 = Data() } }

    /// Everything kept: the last `limit` bytes (from a line's start where one is in reach).
    package var text: String {
        kept.withLock { data in
            let tail = data.suffix(limit)
            let fromLine = data.count > limit ? tail.drop { $0 != UInt8(ascii: "\n") }.dropFirst() : tail[...]
            return String(decoding: fromLine.isEmpty ? tail : fromLine, as: UTF8.self)
        }
    }

    /// The Swift runtime's one-line account of a crash (`*** Program crashed: … ***`), and
    /// the crashed thread's first frame, when the kept output holds a backtrace.
    var crashSummary: String? {
        let lines = text.split(separator: "\n")
        guard let crashed = lines.firstIndex(where: { $0.hasPrefix("*** Program crashed:") }) else { return nil }
        var summary = lines[crashed].trimmingCharacters(in: CharacterSet(charactersIn: "* "))
        if let thread = lines[crashed...].firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix("crashed:") }),
            let frame = lines[(thread + 1)...].first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        {
            let words = frame.split(separator: " ").dropFirst().filter { !$0.hasPrefix("[") }  // the frame's number and [ra]-style marks
            summary += "; \(lines[thread].dropLast()) in \(words.joined(separator: " "))"
        }
        return summary
    }

    /// The last `count` non-empty lines, joined with " | ".
    func lastLines(_ count: Int) -> String {
        kept.withLock { data in
            String(decoding: data.suffix(limit), as: UTF8.self).split(separator: "\n").suffix(count).joined(separator: " | ")
        }
    }
}

/// Calls `body` with a NULL-terminated array of C strings (argv, envp).
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
