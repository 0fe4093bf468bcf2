import Foundation
import BenchAnalysis
import BenchChild
import BenchModel
import BenchWorkflows

/// Signals for commands that run for long. Ctrl-C: the first cancels the engine's token
/// (`run` stops at the current case's next trial and drops that case, `gate` after the
/// current round, `stress` at the end of the current scenario's iteration) and keeps what
/// finished; a second exits at once with status 130. SIGTERM exits at once with status 143.
/// What finished is already on disk (`run` writes after every case, `stress` after every
/// scenario); exiting at once says where it is and removes the scratch space. Children run in process groups of their
/// own, so the terminal's Ctrl-C reaches only this process, and they die with it.
enum Interrupts {
    /// Installs the handlers; cancel the returned value to remove them. The first Ctrl-C
    /// prints "interrupt: `stopping`". Before exiting at once (a second Ctrl-C, SIGTERM),
    /// what `terminated` returns is printed.
    static func cancelOnInterrupt(
        _ cancellation: CancellationToken, stopping: String, terminated: @escaping @Sendable () -> String? = { nil }
    ) -> Installed {
        let pipe = SignalPipe.install(for: [SIGINT, SIGTERM])
        let reader = Thread {
            while let signal = pipe.next() {
                if signal == SIGTERM {
                    // The token stays as it is: cancelling it could let the command finish
                    // first and exit 130 before this exits 143.
                    if let said = terminated() { printError(said) }
                    exitNow(ExitStatus.terminated.rawValue)
                }
                if cancellation.cancel() {
                    if let said = terminated() { printError("\ninterrupted again: \(said)") }
                    exitNow(ExitStatus.interrupted.rawValue)
                }
                printError("\ninterrupt: \(stopping) (Ctrl-C again to quit now)")
            }
            pipe.close()
        }
        reader.name = "schedbench signals"
        reader.start()
        return Installed(pipe: pipe)
    }

    private static func exitNow(_ status: Int32) -> Never {
        ScratchSpace.removeAll()
        _exit(status)
    }

    struct Installed {
        let pipe: SignalPipe

        /// Removes the handlers: the signals' default actions apply again, and the reading
        /// thread ends.
        func cancel() {
            pipe.uninstall()
        }
    }
}

/// SIGINT and SIGTERM caught by a handler installed with `sigaction`, which writes each
/// signal's number to a pipe (the self-pipe pattern; `write` is async-signal-safe) that a
/// thread of its own reads, blocking.
///
/// The handler is in place when `install` returns, so a signal sent from then on is never
/// lost. A dispatch signal source is not: it needs the signal ignored first, and registers
/// its own handler later, on libdispatch's manager thread, so a SIGTERM sent in between was
/// dropped and the command ran on to exit 0. The pipe is read by a plain thread rather than
/// a dispatch read source: closing a pipe's end while libdispatch watched the other crashed
/// its manager thread (a `run` died with SIGSEGV as it finished, after 25 that did not).
struct SignalPipe {
    let readEnd: Int32
    let writeEnd: Int32
    let signals: [Int32]

    /// Where the handler writes: one pipe per process (the handler cannot capture).
    nonisolated(unsafe) private static var handlerWriteEnd: Int32 = -1
    /// What `uninstall` writes to end the reading thread (no signal has number 0).
    private static let stop: UInt8 = 0

    static func install(for signals: [Int32]) -> SignalPipe {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { fatalError("Interrupts: pipe failed (errno \(errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The handler must never block: a full pipe (thousands of unread signals) drops one.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        handlerWriteEnd = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = Glibc.write(SignalPipe.handlerWriteEnd, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in signals { sigaction(signal, &action, nil) }
        return SignalPipe(readEnd: ends[0], writeEnd: ends[1], signals: signals)
    }

    /// The next signal received, waiting for it; nil once `uninstall` ran.
    func next() -> Int32? {
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(readEnd, &byte, 1)
            if count == 1 { return byte == Self.stop ? nil : Int32(byte) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Restores the signals' default actions and tells the reading thread to end; it
    /// closes the pipe.
    func uninstall() {
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
        Self.handlerWriteEnd = -1
        var byte = Self.stop
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    /// Closes both ends; by the reading thread, once it has read the stop.
    func close() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }
}
