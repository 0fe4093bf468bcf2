import Benchmark
import Foundation
import RxSchedulers

// One benchmark per core primitive and strategy. Every figure is per event (or per
// scheduled action): each benchmark runs `scaledIterations` events per iteration.
// `raw serialQueue.async` is the in-process reference the ratios in docs/performance divide by.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .cpuTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 200
    )
    registerQueueBenchmarks()
    registerScheduleBenchmarks()
    registerObserveOnBenchmarks()
    registerMainSchedulerBenchmarks()
    registerSynchronousPipelineBenchmarks()
    registerSharedSequenceBenchmarks()
    registerPeriodicBenchmarks()
    registerAlternatingBenchmarks()
}
