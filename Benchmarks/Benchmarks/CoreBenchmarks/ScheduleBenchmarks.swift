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

    // Through `ImmediateSchedulerType`, as operators call a scheduler: unspecialized code.
    var dispatchSchedulers = namedSchedulers().filter { $0.0 != "mainAsync" }
    dispatchSchedulers.append(
        (
            "serial batched via ImmediateSchedulerType",
            SerialDispatchQueueScheduler(internalSerialQueueName: "bench.serial.batched.any", dispatch: .batched)
        )
    )
    for (name, scheduler) in dispatchSchedulers {
        Benchmark("schedule \(name)", configuration: handoffConfiguration) { benchmark in
            scheduleAndWait(benchmark.scaledIterations.count, on: scheduler)
        }
    }

    // On the scheduler's own type, as an app that holds one calls it: the item is
    // allocated by code specialized for the state's type.
    let serialBatched = SerialDispatchQueueScheduler(internalSerialQueueName: "bench.serial.batched", dispatch: .batched)
    Benchmark("schedule serial batched", configuration: handoffConfiguration) { benchmark in
        scheduleAndWait(benchmark.scaledIterations.count, on: serialBatched)
    }
    let concurrentBatched = ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: .batched)
    Benchmark("schedule concurrent batched", configuration: handoffConfiguration) { benchmark in
        scheduleAndWait(benchmark.scaledIterations.count, on: concurrentBatched)
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
