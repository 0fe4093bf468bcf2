import RxSchedulers

/// An Rx scheduler over an `EventLoop`: actions run one at a time on the loop's thread, in
/// the order they were scheduled (it claims `.serial`). An action disposed before the loop
/// reaches it does not run. The loop's thread ends when the scheduler is released.
public final class EventLoopScheduler: ImmediateSchedulerType {
    private let loop: EventLoop

    public init(name: String = "EventLoopScheduler") {
        loop = EventLoop(name: name)
    }

    deinit { loop.shutdown() }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        loop.execute {
            if !disposable.isDisposed { disposable.setDisposable(action(state)) }
        }
        return disposable
    }
}

/// The same scheduler with a bug a team might ship: it spreads actions over two loops
/// "for throughput", so two actions can run at once and out of order, yet it is
/// registered as `.serial`. `schedbench stress --scheduler` exits 3 on it.
public final class TwoLoopScheduler: ImmediateSchedulerType {
    private let loops = [EventLoop(name: "TwoLoopScheduler.0"), EventLoop(name: "TwoLoopScheduler.1")]
    private var next = 0

    public init() {}

    deinit { loops.forEach { $0.shutdown() } }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        // The bug: round robin over two threads (and an unguarded counter).
        next &+= 1
        loops[next & 1].execute {
            if !disposable.isDisposed { disposable.setDisposable(action(state)) }
        }
        return disposable
    }
}
