import Benchmark
import Foundation
import RxSchedulers

func registerPeriodicBenchmarks() {
    for policy in PeriodicPolicy.allCases {
        Benchmark("periodic tick virtual \(policy.rawValue)") { benchmark in
            let scheduler = HistoricalScheduler()
            var ticks = 0
            let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(1), policy: policy) { state in
                ticks += 1
                return state + 1
            }
            scheduler.advanceTo(Date(timeIntervalSince1970: Double(benchmark.scaledIterations.count)))
            periodic.dispose()
            blackHole(ticks)
        }
    }
}
