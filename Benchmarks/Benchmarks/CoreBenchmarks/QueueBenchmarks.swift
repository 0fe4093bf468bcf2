import Benchmark
import Foundation
import RxSchedulers
import Synchronization

func registerQueueBenchmarks() {
    Benchmark("queue mpsc 1p enqueue+dequeue") { benchmark in
        let queue = MPSCQueue<Int>()
        for index in benchmark.scaledIterations { queue.enqueue(index) }
        for _ in benchmark.scaledIterations { blackHole(queue.dequeue()) }
    }

    Benchmark("queue mpsc 4p enqueue, 1 consumer", configuration: handoffConfiguration) { benchmark in
        let queue = MPSCQueue<Int>()
        let perProducer = benchmark.scaledIterations.count / 4
        let consumer = Thread {
            var received = 0
            while received < perProducer * 4 {
                if queue.dequeue() != nil { received += 1 }
            }
        }
        benchmark.startMeasurement()
        consumer.start()
        runProducers(4) { _ in for index in 0..<perProducer { queue.enqueue(index) } }
        while !consumer.isFinished { sched_yield() }
        benchmark.stopMeasurement()
    }

    // The reference: a FIFO under a mutex, as RxSwift's queues are used.
    Benchmark("queue mutex+array 4p enqueue, 1 consumer", configuration: handoffConfiguration) { benchmark in
        let queue = Mutex<[Int]>([])
        let perProducer = benchmark.scaledIterations.count / 4
        let consumer = Thread {
            var received = 0
            while received < perProducer * 4 {
                let batch = queue.withLock { items -> [Int] in
                    let batch = items
                    items.removeAll(keepingCapacity: true)
                    return batch
                }
                received += batch.count
            }
        }
        benchmark.startMeasurement()
        consumer.start()
        runProducers(4) { _ in for index in 0..<perProducer { queue.withLock { $0.append(index) } } }
        while !consumer.isFinished { sched_yield() }
        benchmark.stopMeasurement()
    }
}
