import Foundation

/// A scheduler whose clock moves only when told to: `start()` runs everything queued,
/// jumping the clock to each item's time; `advanceTo(_:)` runs what is due up to a time.
///
/// Items due at the same time run in the order they were scheduled. Scheduling is
/// thread-safe; running (`start`, `advanceTo`) belongs to one thread at a time.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, CustomDebugStringConvertible, VirtualTimeSchedulerMarker {
    public typealias VirtualTime = Converter.VirtualTimeUnit
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private let lock = Lock(recursive: true)
    private var running = false
    private var currentClock: VirtualTime
    private var queue: PriorityQueue<VirtualSchedulerItem<VirtualTime>>
    private let converter: Converter
    private var nextId = 0

    /// A scheduler with its clock at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        currentClock = initialClock
        self.converter = converter
        queue = PriorityQueue { lhs, rhs in
            switch converter.compareVirtualTime(lhs.time, rhs.time) {
            case .lessThan: return true
            case .equal: return lhs.id < rhs.id
            case .greaterThan: return false
            }
        }
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    /// The clock as a date.
    public var now: RxTime { converter.convertFromVirtualTime(clock) }

    /// The virtual clock.
    public var clock: VirtualTime { lock.performLocked { currentClock } }

    /// Schedules `action` at the current virtual time (after what is already due now).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` at `now + dueTime`, adjusted by `adjustScheduledTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let time = converter.convertToVirtualTime(now.adding(dueTime))
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` at `clock + dueTime` in virtual units.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at the absolute virtual time `time`.
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        lock.performLocked {
            let item = VirtualSchedulerItem(action: { action(state) }, time: time, id: nextId)
            nextId += 1
            queue.enqueue(item)
            return item
        }
    }

    /// Lets a subclass move a requested time (e.g. never in the past). Default: as is.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    /// Runs queued items in time order until none is left or `stop()` is called.
    public func start() {
        guard beginRunning() else { return }
        while isRunning, let next = nextItem(dueBy: nil) {
            next.invoke()
        }
        lock.performLocked { running = false }
    }

    /// Runs every item due at or before `virtualTime`, then sets the clock to it.
    /// Traps when called while the scheduler is running.
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard beginRunning() else { fatalError("Scheduler is already running") }
        while isRunning, let next = nextItem(dueBy: virtualTime) {
            next.invoke()
        }
        lock.performLocked {
            currentClock = virtualTime
            running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        lock.performLocked {
            let sleepTo = converter.offsetVirtualTime(currentClock, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, currentClock) == .lessThan {
                fatalError("Can't sleep to the past.")
            }
            currentClock = sleepTo
        }
    }

    /// Stops `start()` / `advanceTo(_:)` after the item running now.
    public func stop() {
        lock.performLocked { running = false }
    }

    private var isRunning: Bool { lock.performLocked { running } }

    private func beginRunning() -> Bool {
        lock.performLocked {
            if running { return false }
            running = true
            return true
        }
    }

    /// Dequeues the next live item (due by `limit`, if given) and moves the clock to it.
    private func nextItem(dueBy limit: VirtualTime?) -> VirtualSchedulerItem<VirtualTime>? {
        lock.performLocked {
            while let front = queue.peek() {
                if front.isDisposed {
                    _ = queue.dequeue()
                    continue
                }
                if let limit, converter.compareVirtualTime(front.time, limit) == .greaterThan { return nil }
                _ = queue.dequeue()
                if converter.compareVirtualTime(front.time, currentClock) == .greaterThan {
                    currentClock = front.time
                }
                return front
            }
            return nil
        }
    }

    public var debugDescription: String {
        lock.performLocked { "VirtualTimeScheduler(clock: \(currentClock), queued: \(queue.count))" }
    }
}

/// One queued virtual-time action; it is also the disposable returned to the caller.
final class VirtualSchedulerItem<Time>: Cancelable, @unchecked Sendable {
    let time: Time
    let id: Int
    private let item: ScheduledItem<Void>

    init(action: @escaping () -> Disposable, time: Time, id: Int) {
        self.time = time
        self.id = id
        self.item = ScheduledItem(action: { _ in action() }, state: ())
    }

    var isDisposed: Bool { item.isDisposed }

    func invoke() { item.invoke() }

    func dispose() { item.dispose() }
}

/// What every `VirtualTimeScheduler` is, whatever its converter: lets code that holds a
/// scheduler as an existential tell virtual time from real time.
@usableFromInline
protocol VirtualTimeSchedulerMarker: AnyObject {}
