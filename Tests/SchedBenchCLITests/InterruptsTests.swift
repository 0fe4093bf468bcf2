import Foundation
import XCTest

@testable import SchedBenchCLI

final class InterruptsTests: XCTestCase {
    /// Defect: a SIGTERM sent just after the handlers were "installed" was lost (the command
    /// ignored the signal until libdispatch registered its signal source, later, on another
    /// thread) and `run` went on to exit 0. The handler is now in place when `install`
    /// returns: a signal raised at once is read back.
    func testASignalRaisedRightAfterInstallingIsNotLost() throws {
        let pipe = SignalPipe.install(for: [SIGTERM, SIGINT])
        defer {
            pipe.uninstall()
            close(pipe.readEnd)
        }
        raise(SIGTERM)
        raise(SIGINT)
        XCTAssertEqual(pipe.drain(), [SIGTERM, SIGINT])
        XCTAssertEqual(pipe.drain(), [], "each signal is read once")
    }

    func testUninstallingRestoresTheDefaultAction() throws {
        let pipe = SignalPipe.install(for: [SIGINT])
        pipe.uninstall()
        close(pipe.readEnd)
        var action = sigaction()
        sigaction(SIGINT, nil, &action)
        XCTAssertEqual(unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self), unsafeBitCast(SIG_DFL, to: Int.self))
    }
}
