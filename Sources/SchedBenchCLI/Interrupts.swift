import Dispatch
import Foundation
import SchedulerBench

/// Ctrl-C for commands that run for long: the first one asks the engine to stop after
/// the current case (or gate round) and keep what finished; a second one exits at once
/// with status 130. Children run in process groups of their own, so the terminal's
/// Ctrl-C reaches only this process, and they die with it.
enum Interrupts {
    /// Installs the handler; cancel the returned source to remove it.
    static func stopAfterCurrentCase(_ cancellation: CancellationToken) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if cancellation.cancel() {
                _exit(ExitStatus.interrupted.rawValue)
            }
            printError("\ninterrupt: stopping after the current case (Ctrl-C again to quit now)")
        }
        source.resume()
        return source
    }
}
