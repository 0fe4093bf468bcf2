// Runs one of the core's hot paths for the instruction-count gate
// (scripts/instruction-gate.py), which runs this program under callgrind:
//
//     HotPathInstructions CASE EVENTS
//
// The case is set up and warmed up first (EVENTS events through the same code, so that
// what a path keeps for reuse, such as the trampoline's emptied chunks, is already there:
// the count is the steady state of repeated bursts), then instrumentation is switched on
// for every thread, EVENTS events go through the path, and it is switched off once the
// last has arrived. The gate runs each case at two sizes and divides the difference by
// the difference in events, so what is fixed per run (a subscription, a wake-up) cancels
// out and what is left is per event.
//
// Run natively (not under valgrind) the instrumentation calls do nothing: `list` prints
// the cases, and any case runs as a smoke test.

import CCallgrind
import Dispatch
import Foundation
import RxSchedulers
import Synchronization

/// One hot path: `run(events)` pushes that many events through it and returns once the
/// last has arrived. `instrumented` wraps the part to count.
struct HotPath {
    let name: String
    /// Whether events cross threads (the count then varies with how batches form).
    let crossesThreads: Bool
    let summary: String
    let run: (_ events: Int, _ instrumented: (() -> Void) -> Void) -> Void
}

/// A counter an observer on another thread bumps and the producer waits on.
final class Arrivals: @unchecked Sendable {
    private let count = Atomic<Int>(0)
    private let reached = DispatchSemaphore(value: 0)
    private var target = Int.max

    func expect(_ total: Int) {
        target = total
        count.store(0, ordering: .releasing)
    }

    func arrived() {
        if count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == target { reached.signal() }
    }

    func wait() {
        precondition(reached.wait(timeout: .now() + 120) == .success, "the events did not all arrive")
    }
}

/// The arrivals of `main.background`, global so that its actions capture nothing.
let mainArrivals = Arrivals()

/// A sink the optimizer cannot remove.
nonisolated(unsafe) var sink = 0

@inline(never)
func consume(_ value: Int) { sink &+= value }

func observeOn(_ scheduler: ImmediateSchedulerType) -> (Int, (() -> Void) -> Void) -> Void {
    { events, instrumented in
        let subject = PublishSubject<Int>()
        let arrivals = Arrivals()
        let subscription = subject.observe(on: scheduler, strategy: .drain).subscribe(onNext: { value in
            consume(value)
            arrivals.arrived()
        })
        let warmUp = events
        arrivals.expect(warmUp)
        for value in 0..<warmUp { subject.onNext(value) }
        arrivals.wait()
        arrivals.expect(events)
        instrumented {
            for value in 0..<events { subject.onNext(value) }
            arrivals.wait()
        }
        subscription.dispose()
    }
}

func onBackgroundThread(_ body: @escaping () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}

func onMainQueue(_ body: @escaping () -> Void) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
        body()
        done.signal()
    }
    done.wait()
}

let hotPaths: [HotPath] = [
    HotPath(
        name: "observeOn.serial.drain", crossesThreads: true, summary: "subject → observe(on: serial, .drain) → observer",
        run: observeOn(SerialDispatchQueueScheduler(internalSerialQueueName: "instructions.serial"))),
    HotPath(
        name: "observeOn.concurrent.drain", crossesThreads: true, summary: "subject → observe(on: concurrent, .drain) → observer",
        run: observeOn(ConcurrentDispatchQueueScheduler(qos: .userInitiated))),
    HotPath(
        name: "observeOn.main.drain", crossesThreads: true, summary: "subject (background thread) → observe(on: MainScheduler.instance, .drain) → observer",
        run: observeOn(MainScheduler.instance)),
    HotPath(
        name: "trampoline.nested", crossesThreads: false,
        summary: "CurrentThreadScheduler.instance.schedule inside an action, as users write it: queued, run after the action returns",
        run: { events, instrumented in
            func burst(_ count: Int) {
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    for value in 0..<count {
                        _ = CurrentThreadScheduler.instance.schedule(value) { value in
                            consume(value)
                            return Disposables.create()
                        }
                    }
                    return Disposables.create()
                }
            }
            burst(events)
            instrumented { burst(events) }
        }),
    HotPath(
        name: "trampoline.recursive", crossesThreads: false, summary: "CurrentThreadScheduler.instance.scheduleRecursive chain",
        run: { events, instrumented in
            func chain(_ count: Int) {
                _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
                    consume(value)
                    if value < count { recurse(value + 1) }
                }
            }
            chain(events)
            instrumented { chain(events) }
        }),
    HotPath(
        name: "main.inline", crossesThreads: false, summary: "MainScheduler.instance.schedule on the main queue with nothing enqueued: runs inline",
        run: { events, instrumented in
            func calls(_ count: Int) {
                onMainQueue {
                    for value in 0..<count {
                        _ = MainScheduler.instance.schedule(value) { value in
                            consume(value)
                            return Disposables.create()
                        }
                    }
                }
            }
            calls(events)
            instrumented { calls(events) }
        }),
    HotPath(
        name: "main.background", crossesThreads: true, summary: "MainScheduler.instance.schedule from a background thread: queued for the main queue",
        run: { events, instrumented in
            func burst(_ count: Int) {
                mainArrivals.expect(count)
                onBackgroundThread {
                    for value in 0..<count {
                        // Captures nothing (a global counter): the count is the core's, not a context's.
                        _ = MainScheduler.instance.schedule(value) { value in
                            consume(value)
                            mainArrivals.arrived()
                            return Disposables.create()
                        }
                    }
                }
                mainArrivals.wait()
            }
            burst(events)
            instrumented { burst(events) }
        }),
    HotPath(
        name: "chain.range", crossesThreads: false, summary: "Observable.range → map → filter → subscribe",
        run: { events, instrumented in
            func chain(_ count: Int) {
                _ = Observable<Int>.range(start: 0, count: count).map { $0 &* 3 }.filter { $0 & 1 == 0 }.subscribe(onNext: consume)
            }
            chain(events)
            instrumented { chain(events) }
        }),
    HotPath(
        name: "chain.create", crossesThreads: false, summary: "Observable.create (a loop of onNext) → map → filter → subscribe",
        run: { events, instrumented in
            func chain(_ count: Int) {
                _ = Observable<Int>.create { observer in
                    for value in 0..<count { observer.onNext(value) }
                    observer.onCompleted()
                    return Disposables.create()
                }
                .map { $0 &* 3 }.filter { $0 & 1 == 0 }.subscribe(onNext: consume)
            }
            chain(events)
            instrumented { chain(events) }
        }),
    HotPath(
        name: "chain.subject", crossesThreads: false, summary: "PublishSubject.onNext → map → filter → observer",
        run: { events, instrumented in
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 &* 3 }.filter { $0 & 1 == 0 }.subscribe(onNext: consume)
            for value in 0..<events { subject.onNext(value) }
            instrumented {
                for value in 0..<events { subject.onNext(value) }
            }
            subscription.dispose()
        }),
    HotPath(
        name: "chain.merge", crossesThreads: false,
        summary: "PublishSubject.onNext → merge (with a second, idle subject) → map → observer: the merge's uncontended path",
        run: { events, instrumented in
            let subject = PublishSubject<Int>()
            let idle = PublishSubject<Int>()
            let subscription = Observable.merge(subject.asObservable(), idle.asObservable()).map { $0 &* 3 }.subscribe(onNext: consume)
            for value in 0..<events { subject.onNext(value) }
            instrumented {
                for value in 0..<events { subject.onNext(value) }
            }
            subscription.dispose()
        }),
    HotPath(
        name: "mpsc.enqueueDequeue", crossesThreads: false, summary: "MPSCQueue<Int>: enqueue then dequeue, one thread",
        run: { events, instrumented in
            let queue = MPSCQueue<Int>()
            func pass(_ count: Int) {
                for value in 0..<count {
                    queue.enqueue(value)
                    consume(queue.dequeue()!)
                }
            }
            pass(events)
            instrumented { pass(events) }
        }),
]

func main() {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.first == "list" || arguments.isEmpty {
        for path in hotPaths { print("\(path.name)\t\(path.crossesThreads ? "cross-thread" : "one-thread")\t\(path.summary)") }
        exit(0)
    }
    guard arguments.count == 2, let path = hotPaths.first(where: { $0.name == arguments.first }), let events = Int(arguments.last!), events > 0
    else {
        FileHandle.standardError.write(Data("usage: HotPathInstructions list | CASE EVENTS (cases: HotPathInstructions list)\n".utf8))
        exit(64)
    }
    // The main queue runs only while the main thread serves it: the case runs on a thread
    // of its own, and the main thread runs the main run loop (not `dispatchMain()`, whose
    // signal-waiting main thread valgrind 3.19 crashes on).
    let runner = Thread {
        var counted = false
        path.run(events) { body in
            schedbench_callgrind_begin()
            body()
            schedbench_callgrind_end()
            counted = true
        }
        precondition(counted, "the case never ran its instrumented part")
        print("events \(events)")
        exit(0)
    }
    runner.stackSize = 8 << 20
    runner.start()
    while true { RunLoop.main.run(until: .distantFuture) }
}

main()
