import Benchmark
import Dispatch
import RxSchedulers

/// The tuned schedule paths as ratios to raw `DispatchQueue.async` measured at the same
/// moment: each sample times a block of raw asyncs and then a block of the path, and
/// records cost per action of the path ÷ cost per action of raw async, in thousandths.
///
/// Raw async on this machine drifts by 2–3× within minutes, so a ratio against a raw
/// async timed minutes earlier (the suite's other benchmarks) moves with that drift;
/// alternating the two cancels it.
func registerAlternatingBenchmarks() {
    let queue = DispatchQueue(label: "bench.alternating.raw")
    let rawBlock = 200_000

    alternating("nested trampoline schedule (a 1,000,000 burst)", queue: queue, rawBlock: rawBlock, block: 1_000_000) { count in
        let scheduler = CurrentThreadScheduler.instance
        _ = scheduler.schedule(()) { _ in
            for _ in 0..<count { _ = scheduler.schedule(()) { _ in Disposables.create() } }
            return Disposables.create()
        }
    }
    // As users write it: `.instance` at each call, and a state the action takes.
    alternating("nested trampoline schedule via .instance, Int state (a 1,000,000 burst)", queue: queue, rawBlock: rawBlock, block: 1_000_000) { count in
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            for value in 0..<count {
                _ = CurrentThreadScheduler.instance.schedule(value) { value in
                    blackHole(value)
                    return Disposables.create()
                }
            }
            return Disposables.create()
        }
    }
    // The hop every app makes: a background thread (the benchmark's) to the main queue,
    // against raw async on a serial queue.
    alternating("main schedule from background via .instance", queue: queue, rawBlock: rawBlock, block: rawBlock) { count in
        let countdown = Countdown(count)
        for _ in 0..<count {
            _ = MainScheduler.instance.schedule(countdown) { countdown in
                countdown.tick()
                return Disposables.create()
            }
        }
        countdown.wait()
    }
    let serial = SerialDispatchQueueScheduler(internalSerialQueueName: "bench.alternating.serial", dispatch: .batched)
    alternating("serial batched schedule", queue: queue, rawBlock: rawBlock, block: rawBlock) { count in
        scheduleAndWait(count, on: serial)
    }
    let concurrent = ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: .batched)
    alternating("concurrent batched schedule", queue: queue, rawBlock: rawBlock, block: rawBlock) { count in
        scheduleAndWait(count, on: concurrent)
    }
}

/// The metric each alternating benchmark records.
let ratioToRawAsync = BenchmarkMetric.custom("x raw async, same moment (1/1000)", polarity: .prefersSmaller, useScalingFactor: false)

/// Registers `<name> vs raw async, alternating`: per sample, `rawBlock` raw asyncs, then `block`
/// actions through `path`, timed separately; 8 samples per iteration.
private func alternating(_ name: String, queue: DispatchQueue, rawBlock: Int, block: Int, path: @escaping (Int) -> Void) {
    let configuration = Benchmark.Configuration(
        metrics: [ratioToRawAsync],
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 3
    )
    Benchmark("\(name) vs raw async, alternating", configuration: configuration) { benchmark in
        for _ in 0..<8 {
            let rawStart = DispatchTime.now().uptimeNanoseconds
            let countdown = Countdown(rawBlock)
            for _ in 0..<rawBlock { queue.async { countdown.tick() } }
            countdown.wait()
            let pathStart = DispatchTime.now().uptimeNanoseconds
            path(block)
            let pathEnd = DispatchTime.now().uptimeNanoseconds
            let rawPerAction = Double(pathStart - rawStart) / Double(rawBlock)
            let pathPerAction = Double(pathEnd - pathStart) / Double(block)
            benchmark.measurement(ratioToRawAsync, Int((pathPerAction / rawPerAction * 1000).rounded()))
        }
    }
}
