import Benchmark
import Foundation
import RxSchedulers

func registerObserveOnBenchmarks() {
    for (name, scheduler) in namedSchedulers() + [("main", MainScheduler.instance)] {
        for strategy in ObserveOnStrategy.all {
            for producers in [1, 4] {
                Benchmark(
                    "observeOn \(name) \(strategy.name) \(producers)p",
                    configuration: handoffConfiguration
                ) { benchmark in
                    let subject = PublishSubject<Int>()
                    let observer = CountingObserver()
                    let subscription = subject.observe(on: scheduler, strategy: strategy).subscribe(observer)
                    let perProducer = benchmark.scaledIterations.count / producers
                    observer.expect(perProducer * producers)
                    benchmark.startMeasurement()
                    if producers == 1 {
                        for index in 0..<perProducer { subject.onNext(index) }
                    } else {
                        runProducers(producers) { _ in for index in 0..<perProducer { subject.onNext(index) } }
                    }
                    observer.wait()
                    benchmark.stopMeasurement()
                    subscription.dispose()
                }
            }
        }
    }
}
