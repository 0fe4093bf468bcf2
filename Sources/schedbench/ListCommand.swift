import ArgumentParser
import SchedulerBench

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List workloads, schedulers, strategies and suites."
    )

    func run() {
        print("Workloads:")
        for workload in Workloads.all {
            print("  \(workload.name.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0))\(workload.summary)")
            let variants = Dictionary(grouping: workload.variants, by: { $0.1 })
            let byStrategy = variants.keys.sorted().map { strategy in
                "\(strategy.rawValue) on \(variants[strategy]!.map(\.0.rawValue).joined(separator: ","))"
            }
            print("  \("".padding(toLength: 22, withPad: " ", startingAt: 0))runs: \(byStrategy.joined(separator: "; "))")
            let axes = ["producers", "payload", "rate"].filter { workload.axes.contains(Axis(rawValue: $0)!) }
            print("  \("".padding(toLength: 22, withPad: " ", startingAt: 0))axes: \(axes.isEmpty ? "none" : axes.joined(separator: ", ")); default events \(workload.defaultEvents)\(workload.defaultRateHz > 0 ? ", rate \(workload.defaultRateHz) Hz" : "")")
        }
        print("\nSchedulers:")
        for (name, text) in Self.schedulerDescriptions {
            print("  \(name.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0))\(text)")
        }
        print("\nStrategies:")
        for (name, text) in Self.strategyDescriptions {
            print("  \(name.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0))\(text)")
        }
        print("\nSuites:")
        for suite in Suite.all {
            print("  \(suite.name.padding(toLength: 16, withPad: " ", startingAt: 0))\(suite.summary)")
        }
    }

    private static let schedulerDescriptions: [(SchedulerName, String)] = [
        (.currentThread, "CurrentThreadScheduler: the trampoline on the calling thread"),
        (.main, "MainScheduler(): inline on main when nothing is queued, else the main queue (strategy batched/perAction)"),
        (.mainAsync, "MainScheduler.asyncInstance: always DispatchQueue.main.async"),
        (.serial, "SerialDispatchQueueScheduler on a new serial queue (fresh per trial)"),
        (.concurrent, "ConcurrentDispatchQueueScheduler on the global userInitiated queue"),
        (.concurrentMain, "ConcurrentMainScheduler: inline on main, else the main queue"),
        (.operationQueue, "OperationQueueScheduler on a new OperationQueue"),
        (.virtual, "HistoricalScheduler: virtual time, run to completion"),
        (.none, "no Rx scheduler: the context baselines gcd and asyncStream"),
    ]

    private static let strategyDescriptions: [(StrategyName, String)] = [
        (.reference, "observe(on:) as RxSwift does it (per-event schedule; lock + queue + recursive schedule)"),
        (.drain, "observe(on:) tuned: lock-free MPSC queue + work-in-progress drain, bounded batches (default)"),
        (.catchUp, "periodic: missed ticks replayed once each, as soon as possible (default)"),
        (.coalesce, "periodic: repeating dispatch timer, missed ticks merged (RxSwift on dispatch queues)"),
        (.fixedRate, "periodic: tick n due at start + n·period, overruns run at once"),
        (.batched, "MainScheduler: queued actions drained 64 per main-queue block (default)"),
        (.perAction, "MainScheduler: one main-queue block per action (RxSwift)"),
        (.gcd, "baseline: raw DispatchQueue.async per event to a serial queue"),
        (.asyncStream, "baseline: AsyncStream (unbounded) read by one Task"),
        (.none, "the workload has a single algorithm"),
    ]
}
