import Benchmark
import Foundation
import RxSchedulers

func registerScheduleBenchmarks() {
    Benchmark("raw serialQueue.async", configuration: handoffConfiguration) { benchmark in
        let queue = DispatchQueue(label: "bench.raw")
        let done = DispatchSemaphore(value: 0)
        let last = benchmark.scaledIterations.count - 1
        for index in benchmark.scaledIterations {
            queue.async { if index == last { done.signal() } }
        }
        done.wait()
    }

    for (name, scheduler) in namedSchedulers() where name != "mainAsync" {
        Benchmark("schedule \(name)", configuration: handoffConfiguration) { benchmark in
            let done = DispatchSemaphore(value: 0)
            let last = benchmark.scaledIterations.count - 1
            for index in benchmark.scaledIterations {
                _ = scheduler.schedule(()) { _ in
                    if index == last { done.signal() }
                    return Disposables.create()
                }
            }
            done.wait()
        }
    }

    Benchmark("schedule currentThread nested") { benchmark in
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
