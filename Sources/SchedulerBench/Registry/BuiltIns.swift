import BenchModel
import Foundation
import RxSchedulers

extension Registry {
    /// The built-ins: the core's schedulers, strategies and workloads, and the hand-offs of
    /// the context baselines and peer frameworks, registered through the same API as a
    /// user's entries, in listing order. Names are stable: add, never rename.
    package static let builtIns: Registry = {
        var registry = Registry()
        registry.addBuiltInSchedulers()
        registry.addBuiltInStrategies()
        registry.addBuiltInWorkloads()
        return registry
    }()

    /// The core's schedulers, each fresh per trial where RxSwift's API allows, so no queue,
    /// counter or thread pool carries from one trial to the next (`currentThread`,
    /// `concurrentMain`, `mainShared`, `mainAsync` and the concurrent global queue are
    /// process-wide in RxSwift and stay so). `main` takes its dispatch from the case's
    /// strategy (`batched` unless it names one), `serial` and `concurrent` too (`perAction`
    /// unless it names one); RxSwift's per-action dispatch for `reference` and
    /// `referenceGeneric` unless a composite name (`reference+batched`) says otherwise.
    private mutating func addBuiltInSchedulers() {
        let mainDispatch: [StrategyName] = [.batched, .perAction]
        let policies: [StrategyName] = [.catchUp, .coalesce, .fixedRate, .rxRecursive]

        var currentThread = RegisteredScheduler(
            name: .currentThread, summary: "CurrentThreadScheduler.instance: the trampoline on the calling thread", contracts: .ordered
        ) { _ in CurrentThreadScheduler.instance }
        currentThread.runsOnCallingThread = true
        currentThread.offers = [.trampolineNested: [.none]]
        add(currentThread)

        var main = RegisteredScheduler(
            name: .main, summary: "MainScheduler(dispatch:): a private instance per trial; inline on main when nothing is queued, else the main queue",
            contracts: .serial
        ) { strategy in MainScheduler(dispatch: strategy.dispatch ?? .batched) }
        main.isSerialDispatch = true
        main.usesMainQueue = true
        main.dispatchModes = mainDispatch
        main.offers = [
            .scheduleThroughput: mainDispatch, .mainInline: [.none], .mainFlood: mainDispatch, .mainMixed: mainDispatch,
            .periodicCatchUp: policies,
        ]
        add(main)

        var mainShared = RegisteredScheduler(
            name: .mainShared,
            summary: "MainScheduler.instance: the process-wide instance apps use (batched dispatch), its enqueue counter shared with every caller",
            contracts: .serial
        ) { _ in MainScheduler.instance }
        mainShared.isSerialDispatch = true
        mainShared.usesMainQueue = true
        mainShared.offers = [.mainInline: [.none], .mainFlood: [.none], .mainMixed: [.batched]]
        add(mainShared)

        var mainAsync = RegisteredScheduler(
            name: .mainAsync, summary: "MainScheduler.asyncInstance: always DispatchQueue.main.async", contracts: .serial
        ) { _ in MainScheduler.asyncInstance }
        mainAsync.isSerialDispatch = true
        mainAsync.usesMainQueue = true
        mainAsync.offers = [.mainInline: [.none], .mainFlood: [.none]]
        add(mainAsync)

        var serial = RegisteredScheduler(
            name: .serial, summary: "SerialDispatchQueueScheduler(qos: .userInitiated): a new serial queue per trial", contracts: .serial
        ) { strategy in
            SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "schedbench.serial", dispatch: strategy.dispatch ?? .perAction)
        }
        serial.isSerialDispatch = true
        serial.dispatchModes = [.perAction, .batched]
        serial.offers = [.scheduleThroughput: [.perAction, .batched], .periodicCatchUp: policies]
        add(serial)

        var concurrent = RegisteredScheduler(
            name: .concurrent, summary: "ConcurrentDispatchQueueScheduler(qos: .userInitiated): the global queue", contracts: []
        ) { strategy in ConcurrentDispatchQueueScheduler(qos: .userInitiated, dispatch: strategy.dispatch ?? .perAction) }
        concurrent.dispatchModes = [.perAction, .batched]
        concurrent.offers = [.scheduleThroughput: [.perAction, .batched], .periodicCatchUp: policies]
        add(concurrent)

        var concurrentMain = RegisteredScheduler(
            name: .concurrentMain, summary: "ConcurrentMainScheduler.instance: inline on main, else the main queue", contracts: []
        ) { _ in ConcurrentMainScheduler.instance }
        concurrentMain.usesMainQueue = true
        concurrentMain.offers = [.mainInline: [.none]]
        add(concurrentMain)

        add(
            RegisteredScheduler(
                name: .operationQueue, summary: "OperationQueueScheduler on a new OperationQueue() per trial (default width: concurrent)",
                contracts: []
            ) { _ in
                let queue = OperationQueue()
                queue.name = "schedbench.operationQueue"
                return OperationQueueScheduler(operationQueue: queue)
            })

        var virtual = RegisteredScheduler(
            name: .virtual, summary: "HistoricalScheduler: virtual time, run to completion", contracts: .serial
        ) { _ in HistoricalScheduler() }
        virtual.isVirtualTime = true
        add(virtual)
    }

    /// The core's algorithms, by the core's own names, and the hand-offs.
    private mutating func addBuiltInStrategies() {
        func strategy(_ name: StrategyName, _ axis: StrategyName.Axis, _ summary: String) {
            add(RegisteredStrategy(name: name, axis: axis, summary: summary))
        }
        strategy(
            .reference, .observeOn,
            "observe(on:) as RxSwift does it: per-event blocks on serial dispatch queues, lock + queue + recursive schedule elsewhere; on main with per-action dispatch"
        )
        strategy(.referenceGeneric, .observeOn, "observe(on:) with RxSwift's generic algorithm (lock + queue + recursive schedule) on serial dispatch schedulers too")
        strategy(.drain, .observeOn, "observe(on:) tuned: lock-free MPSC queue + work-in-progress drain, bounded batches (default)")
        strategy(.catchUp, .periodic, "every missed tick replayed once, in order, as soon as possible (default)")
        strategy(.coalesce, .periodic, "a repeating dispatch timer that merges missed ticks (RxSwift on dispatch queues)")
        strategy(.fixedRate, .periodic, "tick n due at start + n·period; overruns run at once; a far-behind schedule is rebased")
        strategy(
            .rxRecursive, .periodic,
            "RxSwift's SchedulePeriodicRecursive on any scheduler: ticks counted by recursive schedules on the scheduler itself, owed ones replayed")
        strategy(
            .batched, .dispatch,
            "actions queued lock-free, one queue block runs up to 256 of them or 0.5 ms (MainScheduler's default; serial and concurrent take it too)")
        strategy(.perAction, .dispatch, "one queue block per action (RxSwift; the serial and concurrent schedulers' default)")

        func handOff(_ name: StrategyName, _ axis: StrategyName.Axis, _ summary: String, _ type: any BuiltInHandOff.Type) {
            add(RegisteredStrategy(name: name, axis: axis, summary: summary) { deliver in type.init(deliver: deliver) })
        }
        handOff(.gcd, .baseline, "raw DispatchQueue.async per event to a serial queue", GCDHandOff.self)
        handOff(.asyncStream, .baseline, "an unbounded AsyncStream read by one Task", AsyncStreamHandOff.self)
        handOff(.actor, .peer, "each event hopped onto an actor in its own Task (enqueued in order), the actor calls the observer", ActorHandOff.self)

        strategy(.direct, .none, "no hand-off: the consumer runs on the thread that delivers (merge.throughput's merge straight to its consumer)")
        strategy(.none, .none, "the workload has a single algorithm")
    }

    private mutating func addBuiltInWorkloads() {
        add(ScheduleThroughput())
        add(ObserveOnThroughput())
        add(MergeThroughput())
        add(ObserveOnLatency())
        add(SubscribeOnCycle())
        add(TrampolineNested())
        add(MainInline())
        add(MainFlood())
        add(MainMixed())
        add(PeriodicCatchUp())
        add(PipelineSearch())
        add(PipelineLoading())
    }
}
