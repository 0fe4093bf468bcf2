import Benchmark
import Foundation
import RxSchedulers

func registerSynchronousPipelineBenchmarks() {
    Benchmark("range.map.filter (trampoline)") { benchmark in
        var sum = 0
        _ = Observable<Int>.range(start: 0, count: benchmark.scaledIterations.count)
            .map { $0 &* 3 }
            .filter { $0 & 1 == 0 }
            .subscribe(onNext: { sum &+= $0 })
        blackHole(sum)
    }

    Benchmark("create.map.filter") { benchmark in
        let count = benchmark.scaledIterations.count
        var sum = 0
        _ = Observable<Int>.create { observer in
            for index in 0..<count { observer.onNext(index) }
            observer.onCompleted()
            return Disposables.create()
        }
        .map { $0 &* 3 }
        .filter { $0 & 1 == 0 }
        .subscribe(onNext: { sum &+= $0 })
        blackHole(sum)
    }

    Benchmark("subject.map.filter delivery") { benchmark in
        let subject = PublishSubject<Int>()
        var sum = 0
        let subscription = subject.map { $0 &* 3 }.filter { $0 & 1 == 0 }.subscribe(onNext: { sum &+= $0 })
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { subject.onNext(index) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sum)
    }

    // share(replay: 1), as every Driver operator shares: one subscriber.
    Benchmark("subject.share(replay: 1) delivery") { benchmark in
        let subject = PublishSubject<Int>()
        var sum = 0
        let subscription = subject.share(replay: 1).subscribe(onNext: { sum &+= $0 })
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { subject.onNext(index) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sum)
    }

    // The combining operators beside map/filter: each element of the first subject is
    // combined with the second's (which sent one element before the measurement).
    Benchmark("subjects.combineLatest delivery") { benchmark in
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var sum = 0
        let subscription = Observable.combineLatest(first, second) { $0 &+ $1 }.subscribe(onNext: { sum &+= $0 })
        second.onNext(1)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { first.onNext(index) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sum)
    }

    // Both subjects send in turn, so each pair is combined as the second element arrives.
    Benchmark("subjects.zip delivery (per pair)") { benchmark in
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var sum = 0
        let subscription = Observable.zip(first, second) { $0 &+ $1 }.subscribe(onNext: { sum &+= $0 })
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            first.onNext(index)
            second.onNext(index)
        }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sum)
    }

    Benchmark("subject.withLatestFrom delivery") { benchmark in
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var sum = 0
        let subscription = first.withLatestFrom(second) { $0 &+ $1 }.subscribe(onNext: { sum &+= $0 })
        second.onNext(1)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { first.onNext(index) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sum)
    }
}
