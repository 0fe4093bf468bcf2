import Benchmark
import Foundation
import RxSchedulers
import RxSchedulersCocoa

func registerSharedSequenceBenchmarks() {
    // Beside "subject.map.filter delivery": the same chain as a Driver, driven on the main
    // queue as apps do. Per element: the driver's hop (the main scheduler, inline: on
    // main with nothing enqueued) and the sharing of each operator (a subject per shared
    // sequence, three here: asDriver, map, filter). The hop onto the main queue is
    // outside the measurement.
    Benchmark("driver.map.filter delivery (on main)", configuration: inlineConfiguration) { benchmark in
        let subject = PublishSubject<Int>()
        var sum = 0
        onMainQueue {
            let subscription = subject.asDriver(onErrorJustReturn: 0)
                .map { $0 &* 3 }
                .filter { $0 & 1 == 0 }
                .drive(onNext: { sum &+= $0 })
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations { subject.onNext(index) }
            benchmark.stopMeasurement()
            subscription.dispose()
        }
        blackHole(sum)
    }

    // scan beside map: the accumulated value lives in the subscription, nothing per element.
    Benchmark("subject.scan delivery") { benchmark in
        let subject = PublishSubject<Int>()
        var last = 0
        let subscription = subject.scan(0) { $0 &+ $1 }.subscribe(onNext: { last = $0 })
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { subject.onNext(index) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(last)
    }
}
