import BenchModel
/// A named set of cases. Each entry picks a workload and, optionally, narrows its
/// schedulers and strategies and sets its axes; unset axes take the workload's defaults.
package struct Suite: Sendable {
    package struct Entry: Sendable {
        package var workload: WorkloadName
        package var schedulers: [SchedulerName]? = nil
        package var strategies: [StrategyName]? = nil
        package var producers: [Int] = [1]
        package var events: Int? = nil
        /// Events of the cases on these schedulers, instead of `events`: the ones that cost
        /// far more an event than the rest.
        package var eventsOn: [SchedulerName: Int] = [:]
        /// Events of the cases with these strategies, instead of `events` (and of `eventsOn`).
        package var eventsWith: [StrategyName: Int] = [:]
        package var payloads: [Int] = [0]
        package var rates: [Int]? = nil

        /// The events of this entry's case on `scheduler` with `strategy`, unless the run says.
        func events(on scheduler: SchedulerName, with strategy: StrategyName) -> Int? {
            eventsWith[strategy] ?? eventsOn[scheduler] ?? events
        }
    }

    package var name: String
    package var summary: String
    package var entries: [Entry]
    /// Whether it leaves out the schedulers and hand-offs registered as not in the quick
    /// suite (unless a run names them).
    package var quickEntriesOnly = false

    package static let all: [Suite] = [quick, standard, full, scaling, instructions]

    package static func named(_ name: String) -> Suite? { all.first { $0.name == name } }

    /// What CI runs: every scheduler × observe(on:) strategy (the peer frameworks included) at
    /// 1 and 4 producers, a latency case on `drain` and on a peer, one periodic case, and
    /// main.mixed with and without a flood. 50 s here (release build).
    package static let quick = Suite(
        name: "quick",
        summary:
            "every scheduler × observe(on:) strategy and peer at 1 and 4 producers, two latency, one periodic and the main.mixed cases (<60 s; CI)",
        entries: [
            Entry(workload: .observeOnThroughput, producers: [1, 4], events: 10_000),
            Entry(workload: .observeOnLatency, schedulers: [.serial], strategies: [.drain], events: 5_000, rates: [10_000]),
            Entry(workload: .observeOnLatency, schedulers: [.none], strategies: [.openCombine], events: 5_000, rates: [10_000]),
            Entry(workload: .periodicCatchUp, schedulers: [.serial], strategies: [.catchUp], events: 300),
            Entry(workload: .mainMixed, producers: [1, 3], events: 1_000),
        ], quickEntriesOnly: true)

    /// Every workload at its default size: 233 cases with the peers of `SchedulerBenchPeers`; the 197 without them took about 15 minutes here (release build).
    package static let standard = Suite(
        name: "default", summary: "every workload, scheduler and strategy at default sizes, producers 1,2,4,8 (~15 min)",
        entries: [
            Entry(workload: .scheduleThroughput, producers: [1, 4], events: 100_000),
            Entry(workload: .observeOnThroughput, producers: [1, 2, 4, 8], events: 100_000),
            Entry(workload: .mergeThroughput, producers: [1, 4], events: 100_000),
            Entry(workload: .observeOnLatency, events: 10_000, rates: [10_000]),
            Entry(workload: .subscribeOnCycle, events: 5_000),
            Entry(workload: .trampolineNested, events: 1_000_000),
            Entry(workload: .mainInline, events: 200_000),
            Entry(workload: .mainFlood, events: 100_000),
            Entry(workload: .mainMixed, producers: [1, 2, 4], events: 5_000),
            Entry(workload: .periodicCatchUp, events: 1_000),
            Entry(workload: .pipelineSearch, events: 200),
            Entry(workload: .pipelineLoading, events: 60),
        ])

    /// The multi-producer paths at 1, 2, 4, 8 and 16 producers, for the machine a team ships
    /// to (a portable bundle runs it where Swift is not installed): fan-in alone
    /// (`merge.throughput`, straight and into observe(on:)), the merged hand-off
    /// (`observeOn.throughput`) and dispatch (`schedule.throughput`), each beside the
    /// hand-offs from the same threads. The report's producers chart shows where the cost
    /// of many producers goes. Measured on fewer cores than producers it shows
    /// oversubscription, not contention.
    package static let scaling = Suite(
        name: "scaling",
        summary: "merge, observe(on:) and dispatch at 1,2,4,8,16 producers beside raw GCD and the peers (run it on the cores you ship to)",
        entries: [
            Entry(workload: .mergeThroughput, schedulers: [.serial, .concurrent], strategies: [.drain, .reference], producers: producerSweep, events: 200_000),
            Entry(workload: .mergeThroughput, schedulers: [.none], producers: producerSweep, events: 200_000),
            Entry(workload: .observeOnThroughput, schedulers: [.serial, .concurrent], strategies: [.drain, .reference], producers: producerSweep, events: 200_000),
            Entry(workload: .observeOnThroughput, schedulers: [.none], producers: producerSweep, events: 200_000),
            Entry(workload: .scheduleThroughput, schedulers: [.serial, .concurrent], strategies: [.batched, .perAction], producers: producerSweep, events: 200_000),
        ])

    /// The pull-request gate's instruction step (`--instructions`): the throughput workloads
    /// on every scheduler and strategy the quick suite runs (the peers included), one
    /// producer, each sized for callgrind. Counting runs a case at a tenth of its events and
    /// twice at half of them, so the sizes keep each case's counted instructions near a hundred
    /// million or below: a subscribe(on:) cycle costs about 31,000 instructions, an
    /// observe(on:) hand-off through dispatch 7,000 (RxSwift's generic one and
    /// `asyncChannel` 15,000–24,000), a virtual-time action 32,000, the core's own paths a
    /// few hundred. 50 cases, counted in one valgrind process per processor (at most 4).
    ///
    /// `subscribeOn.cycle` on `mainAsync` runs ten times the cycles (about 800 million
    /// instructions): each cycle takes one side or the other of a race between the harness's
    /// dispose and the main queue, and a count's spread is how many cycles took which side.
    /// Alone, its count spread by 0.065% over nine runs at 2,000 cycles and 0.024% at
    /// 20,000 (its two processes 0.13% and 0.012% apart), for about 4 seconds more a
    /// process: with a recounted row's ten rounds (`GateWorkflow`), what lets the gate
    /// decide a 3% change of a hand-off on an idle runner (31 of 31 gates). Beside two busy
    /// loops each process keeps its own level of that race, which more cycles do not
    /// narrow, and the gate caught it in 1 of 3 (docs/performance/journal.md, "2026-12-02
    /// (afternoon)"). The other hand-offs' spread is mostly a level a process keeps.
    package static let instructions = Suite(
        name: "instructions",
        summary: "every throughput workload on the quick suite's schedulers and strategies, 1 producer, sized for --instructions (the pull-request gate)",
        entries: [
            Entry(workload: .scheduleThroughput, events: 20_000, eventsOn: [.virtual: 3_000, .operationQueue: 4_000]),
            Entry(
                workload: .observeOnThroughput, events: 10_000,
                eventsWith: [.referenceGeneric: 5_000, .asyncChannel: 4_000, .asyncStream: 5_000]),
            Entry(workload: .trampolineNested, events: 20_000),
            Entry(workload: .mainInline, events: 20_000),
            Entry(workload: .subscribeOnCycle, events: 2_000, eventsOn: [.mainAsync: 20_000]),
        ], quickEntriesOnly: true)

    /// The producer counts of the scaling suite.
    package static let producerSweep = [1, 2, 4, 8, 16]

    /// Larger runs and the payload and rate axes (tens of minutes).
    package static let full = Suite(
        name: "full", summary: "default plus payloads 0,64,1024 B, rates 1k–50k Hz, 1M-event throughput (tens of minutes)",
        entries: [
            Entry(workload: .scheduleThroughput, producers: [1, 2, 4, 8], events: 1_000_000),
            Entry(workload: .observeOnThroughput, producers: [1, 2, 4, 8], events: 1_000_000, payloads: [0, 64, 1024]),
            Entry(workload: .observeOnLatency, events: 50_000, payloads: [0, 1024], rates: [1_000, 10_000, 50_000]),
            Entry(workload: .subscribeOnCycle, events: 20_000),
            Entry(workload: .trampolineNested, events: 5_000_000),
            Entry(workload: .mainInline, events: 1_000_000),
            Entry(workload: .mainFlood, events: 500_000),
            Entry(workload: .mainMixed, producers: [1, 2, 4, 8], events: 20_000, rates: [1_000, 5_000]),
            Entry(workload: .periodicCatchUp, events: 2_000, rates: [100, 1_000]),
            Entry(workload: .pipelineSearch, events: 500, rates: [50, 100]),
            Entry(workload: .pipelineLoading, events: 200),
        ])
}
