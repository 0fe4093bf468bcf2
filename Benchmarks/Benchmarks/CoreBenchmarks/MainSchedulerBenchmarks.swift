import Benchmark
import Foundation
import RxSchedulers

func registerMainSchedulerBenchmarks() {
    Benchmark("main schedule inline (on main, nothing enqueued)") { benchmark in
        onMainQueue {
            for _ in benchmark.scaledIterations {
                blackHole(MainScheduler.instance.schedule(()) { _ in Disposables.create() })
            }
        }
    }

    Benchmark("main schedule from background", configuration: handoffConfiguration) { benchmark in
        let done = DispatchSemaphore(value: 0)
        let last = benchmark.scaledIterations.count - 1
        for index in benchmark.scaledIterations {
            _ = MainScheduler.instance.schedule(()) { _ in
                if index == last { done.signal() }
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
