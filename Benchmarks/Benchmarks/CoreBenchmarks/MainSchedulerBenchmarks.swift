import Benchmark
import Foundation
import RxSchedulers

func registerMainSchedulerBenchmarks() {
    // Both inline benchmarks measure only the calls: the hop onto the main queue (a
    // `main.sync` from the benchmark's thread) is outside the measurement.

    // A scheduler held in a variable, as operators and `observe(on:)` hold theirs.
    Benchmark("main schedule inline (on main, nothing enqueued)", configuration: inlineConfiguration) { benchmark in
        let scheduler = MainScheduler.instance
        onMainQueue {
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(scheduler.schedule(()) { _ in Disposables.create() })
            }
            benchmark.stopMeasurement()
        }
    }

    // `MainScheduler.instance.schedule` written at the call: the compiler retains and
    // releases the shared instance around every call (two atomic operations).
    Benchmark("main schedule inline via MainScheduler.instance each call", configuration: inlineConfiguration) { benchmark in
        onMainQueue {
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(MainScheduler.instance.schedule(()) { _ in Disposables.create() })
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("main schedule from background", configuration: handoffConfiguration) { benchmark in
        let done = DispatchSemaphore(value: 0)
        let last = benchmark.scaledIterations.count - 1
        for index in benchmark.scaledIterations {
            // The semaphore is the state and the closure captures nothing, so the figure is
            // the scheduler's: a capturing closure would add its context's allocation.
            _ = MainScheduler.instance.schedule(index == last ? done : nil) { done in
                done?.signal()
                return Disposables.create()
            }
        }
        done.wait()
    }

    Benchmark("raw main.async from background", configuration: handoffConfiguration) { benchmark in
        let done = DispatchSemaphore(value: 0)
        let last = benchmark.scaledIterations.count - 1
        for index in benchmark.scaledIterations {
            DispatchQueue.main.async { if index == last { done.signal() } }
        }
        done.wait()
    }
}
