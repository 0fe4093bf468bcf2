import Dispatch
import Foundation
import SchedulerBench

/// Signals for commands that run for long. Ctrl-C: the first cancels the engine's token
/// (`run` stops at the current case's next trial and drops that case, `gate` after the
/// current round, `stress` at the end of the current scenario's iteration) and keeps what
/// finished; a second exits at once with status 130. SIGTERM exits at once with status 143.
/// Exiting at once writes what finished and is not on disk yet (`stress`'s scenarios), says
/// where it is, and removes the scratch space. Children run in process groups of their
/// own, so the terminal's Ctrl-C reaches only this process, and they die with it.
enum Interrupts {
    /// Installs the handlers; cancel the returned value to remove them. The first Ctrl-C
    /// prints "interrupt: `stopping`". Before exiting at once (a second Ctrl-C, SIGTERM),
    /// `keepFinished` runs — it writes what finished and not yet written — and what
    /// `terminated` returns is printed.
    static func cancelOnInterrupt(
        _ cancellation: CancellationToken, stopping: String, keepFinished: @escaping @Sendable () -> Void = {},
        terminated: @escaping @Sendable () -> String? = { nil }
    ) -> Installed {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            if cancellation.cancel() {
                keepFinished()
                if let said = terminated() { printError("\ninterrupted again: \(said)") }
                exitNow(ExitStatus.interrupted.rawValue)
            }
            printError("\ninterrupt: \(stopping) (Ctrl-C again to quit now)")
        }
        let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        terminate.setEventHandler {
            _ = cancellation.cancel()
            keepFinished()
            if let said = terminated() { printError(said) }
            exitNow(ExitStatus.terminated.rawValue)
        }
        interrupt.resume()
        terminate.resume()
        return Installed(sources: [interrupt, terminate])
    }

    private static func exitNow(_ status: Int32) -> Never {
        ScratchSpace.removeAll()
        _exit(status)
    }

    struct Installed {
        let sources: [DispatchSourceSignal]

        /// Removes the handlers: the signals' default actions apply again.
        func cancel() {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
    }
}
