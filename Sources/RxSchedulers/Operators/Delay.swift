import Foundation

extension ObservableType {
    /// Sends every element and the completion `dueTime` later than the source sent it, in
    /// order, on `scheduler`. An error is not delayed: it is sent at once (or, while a
    /// delayed element is being sent, right after it), and the elements still waiting are
    /// dropped.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class Delay<Element>: Producer<Element> {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        return (sink, sink.run(source))
    }
}

/// The source's events wait in a queue stamped with the scheduler's clock. The first event
/// into an empty queue schedules a drain `dueTime` later; the drain sends the head, then
/// reschedules itself for the next head's time (one event per scheduled action, as RxSwift
/// does, so a virtual-time test sees each at its own tick). An error empties the queue and
/// is sent at once unless a drain is sending an event right now — then the drain sends it.
private final class DelaySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let lock = Lock(recursive: true)
    private var queue = RingQueue<(time: Date, event: Event<Element>)>()
    /// A drain is scheduled or running.
    private var active = false
    /// A drain is between taking an event and sending it.
    private var running = false
    private var error: Event<Element>?
    private let sourceSubscription = SingleAssignmentDisposable()
    private let drain = SerialDisposable()

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: Observer, cancel: Cancelable) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, drain)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent { sourceSubscription.dispose() }
        if case .error = event {
            let sendNow: Bool = lock.performLocked {
                queue.removeAll()
                error = event
                return !running
            }
            if sendNow {
                forwardOn(event)
                dispose()
            }
            return
        }
        let schedule: Bool = lock.performLocked {
            let idle = !active
            active = true
            queue.enqueue((scheduler.now, event))
            return idle
        }
        if schedule {
            drain.disposable = scheduler.scheduleRecursive((), dueTime: dueTime) { _, recursive in self.drainQueue(recursive) }
        }
    }

    /// What a drain does next, decided under the lock and done outside it.
    private enum DrainStep {
        case fail(Event<Element>)
        case send(Event<Element>)
        case wait(until: Date)
        case idle
    }

    private func drainQueue(_ recursive: AnyRecursiveScheduler<Void>) {
        let failed: Bool = lock.performLocked {
            if error == nil { running = true }
            return error != nil
        }
        if failed { return }
        var sentOne = false
        while true {
            let step: DrainStep = lock.performLocked {
                if let error { return .fail(error) }
                if !sentOne, let head = queue.dequeue() { return .send(head.event) }
                if let next = queue.peek() {
                    running = false
                    return .wait(until: next.time)
                }
                running = false
                active = false
                return .idle
            }
            switch step {
            case .fail(let error):
                forwardOn(error)
                dispose()
                return
            case .send(let event):
                sentOne = true
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                    return
                }
            case .wait(let time):
                recursive.schedule((), dueTime: dueTime.reduced(bySpanFrom: time, to: scheduler.now))
                return
            case .idle:
                return
            }
        }
    }
}
