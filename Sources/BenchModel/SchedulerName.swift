import Foundation
import RxSchedulers

/// Which scheduler a case runs on. `none` marks the context baselines, which use no Rx scheduler.
package enum SchedulerName: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable, DeclarationOrdered {
    case currentThread, main, mainShared, mainAsync, serial, concurrent, concurrentMain, operationQueue, virtual, none

    /// One line for `schedbench list`: the core type and how a trial gets it.
    package var summary: String {
        switch self {
        case .currentThread: return "CurrentThreadScheduler.instance: the trampoline on the calling thread"
        case .main: return "MainScheduler(dispatch:): a private instance per trial; inline on main when nothing is queued, else the main queue"
        case .mainShared:
            return "MainScheduler.instance: the process-wide instance apps use (batched dispatch), its enqueue counter shared with every caller"
        case .mainAsync: return "MainScheduler.asyncInstance: always DispatchQueue.main.async"
        case .serial: return "SerialDispatchQueueScheduler(qos: .userInitiated): a new serial queue per trial"
        case .concurrent: return "ConcurrentDispatchQueueScheduler(qos: .userInitiated): the global queue"
        case .concurrentMain: return "ConcurrentMainScheduler.instance: inline on main, else the main queue"
        case .operationQueue: return "OperationQueueScheduler on a new OperationQueue() per trial (default width: concurrent)"
        case .virtual: return "HistoricalScheduler: virtual time, run to completion"
        case .none: return "no Rx scheduler: the context baselines (gcd, asyncStream) and peer frameworks (openCombine, actor, asyncChannel)"
        }
    }

    /// Whether the scheduler is a `SerialDispatchQueueScheduler` (MainScheduler is one),
    /// where RxSwift's observe(on:) picks per-event blocks rather than its generic algorithm.
    package var isSerialDispatch: Bool { [.main, .mainShared, .mainAsync, .serial].contains(self) }

    /// Whether its actions may run on the main queue, which runs only while the main thread
    /// runs its RunLoop (the CLI's does).
    var usesMainQueue: Bool { [.main, .mainShared, .mainAsync, .concurrentMain].contains(self) }
}
