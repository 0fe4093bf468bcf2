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

    // observe(on: main) with the producer already on the main queue and nothing queued:
    // the main scheduler runs the drain inline, in the producer's call (as a text field's
    // driver delivers).
    Benchmark("observeOn main drain, producer on main (inline)", configuration: inlineConfiguration) { benchmark in
        let subject = PublishSubject<Int>()
        var sum = 0
        onMainQueue {
            let subscription = subject.observe(on: MainScheduler.instance).subscribe(onNext: { sum &+= $0 })
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { subject.onNext(index) }
            benchmark.stopMeasurement()
            subscription.dispose()
        }
        blackHole(sum)
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
