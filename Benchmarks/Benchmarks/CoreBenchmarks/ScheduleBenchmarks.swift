import Benchmark
import Foundation
import RxSchedulers

func registerScheduleBenchmarks() {
    // Every closure here captures one object only, so none needs a context allocation
    // and the malloc counts are the scheduler's own (plus libdispatch's for raw async).
    Benchmark("raw serialQueue.async", configuration: handoffConfiguration) { benchmark in
        let queue = DispatchQueue(label: "bench.raw")
        let countdown = Countdown(benchmark.scaledIterations.count)
        for _ in benchmark.scaledIterations {
            queue.async { countdown.tick() }
        }
        countdown.wait()
    }

    var dispatchSchedulers = namedSchedulers().filter { $0.0 != "mainAsync" }
    dispatchSchedulers += [
        ("serial batched", SerialDispatchQueueScheduler(internalSerialQueueName: "bench.serial.batched", dispatch: .batched)),
        ("concurrent batched", ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: .batched)),
    ]
    for (name, scheduler) in dispatchSchedulers {
        Benchmark("schedule \(name)", configuration: handoffConfiguration) { benchmark in
            let countdown = Countdown(benchmark.scaledIterations.count)
            for _ in benchmark.scaledIterations {
                _ = scheduler.schedule(countdown) { countdown in
                    countdown.tick()
                    return Disposables.create()
                }
            }
            countdown.wait()
        }
    }

    // A burst of a million nested schedules inside one running action, as the issue's
    // target states it: each is queued, then all run after the outer action returns.
    Benchmark("schedule currentThread nested", configuration: handoffConfiguration) { benchmark in
        let scheduler = CurrentThreadScheduler.instance
        _ = scheduler.schedule(()) { _ in
            for _ in benchmark.scaledIterations {
                _ = scheduler.schedule(()) { _ in Disposables.create() }
            }
            return Disposables.create()
        }
    }

    Benchmark("trampoline scheduleRecursive") { benchmark in
        let count = benchmark.scaledIterations.count
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
            if value < count { recurse(value + 1) }
        }
    }

    Benchmark("schedule virtual (historical)") { benchmark in
        let scheduler = HistoricalScheduler()
        for _ in benchmark.scaledIterations {
            _ = scheduler.schedule(()) { _ in Disposables.create() }
        }
        scheduler.start()
    }
}
