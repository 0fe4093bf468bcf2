import Dispatch
import Foundation
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
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            if cancellation.cancel() {
                if let said = terminated() { printError("\ninterrupted again: \(said)") }
                exitNow(ExitStatus.interrupted.rawValue)
            }
            printError("\ninterrupt: \(stopping) (Ctrl-C again to quit now)")
        }
        let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        terminate.setEventHandler {
            // The token stays as it is: cancelling it could let the command finish first
            // and exit 130 before this exits 143.
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
