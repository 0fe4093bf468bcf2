import Dispatch
import Foundation
import NIOCore
import NIOPosix
import RxSchedulers

/// A SwiftNIO `EventLoop` as an Rx `SchedulerType`: `schedule` is `execute`,
/// `scheduleRelative` is `scheduleTask(in:)` (cancelled by disposal), and periodic
/// schedules are the recursive relative ones every `SchedulerType` gets. Each instance owns
/// a `MultiThreadedEventLoopGroup` of one thread, shut down (asynchronously, never from its
/// own loop) when the scheduler is released.
///
/// Serial: the loop runs one task at a time, in the order `execute` was called (NIO's
/// contract), so it claims `.serial`. Cost per action: one NIO task (a closure allocation)
/// and a `SingleAssignmentDisposable`.
final class NIOEventLoopScheduler: SchedulerType, @unchecked Sendable {
    // Immutable after init; NIO's loops are made to be called from any thread.
    private let group: MultiThreadedEventLoopGroup
    private let loop: any EventLoop

    init() {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
    }

    deinit {
        // The last reference may go on the loop itself, where a blocking shutdown would deadlock.
        group.shutdownGracefully(queue: .global()) { _ in }
    }

    var now: RxTime { Date() }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        let work = Work(state: state, action: action, disposable: disposable)
        loop.execute { work.run() }
        return disposable
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        let work = Work(state: state, action: action, disposable: disposable)
        let task = loop.scheduleTask(in: .nanoseconds(Int64(Self.nanoseconds(dueTime)))) { work.run() }
        let cancel = Disposables.create { task.cancel() }
        return Disposables.create(disposable, cancel)
    }

    static func nanoseconds(_ interval: DispatchTimeInterval) -> Int {
        switch interval {
        case .seconds(let value): return value * 1_000_000_000
        case .milliseconds(let value): return value * 1_000_000
        case .microseconds(let value): return value * 1_000
        case .nanoseconds(let value): return value
        case .never: return .max
        @unknown default: return .max
        }
    }
}

/// One action handed to the loop: run unless disposed first. The core's disposables are
/// made to be used from any thread; the state and action cross to the loop's thread once.
private final class Work<StateType>: @unchecked Sendable {
    private let state: StateType
    private let action: (StateType) -> Disposable
    private let disposable: SingleAssignmentDisposable

    init(state: StateType, action: @escaping (StateType) -> Disposable, disposable: SingleAssignmentDisposable) {
        self.state = state
        self.action = action
        self.disposable = disposable
    }

    func run() {
        if !disposable.isDisposed { disposable.setDisposable(action(state)) }
    }
}
