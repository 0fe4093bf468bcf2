import EventLoopScheduler
import RxSchedulers
import SchedulerBench

/// `swift run -c release EventLoopBench run --scheduler eventLoop,serial --workload observeOn.throughput`
/// measures the event loop beside the core's serial scheduler; `… stress --scheduler eventLoop`
/// holds it to the contract it claims.
@main
struct EventLoopBench: SchedulerBenchCommand {
    static func register(in registry: inout Registry) {
        registry.scheduler("eventLoop", summary: "EventLoopScheduler: one thread, FIFO", contracts: [.serial]) {
            EventLoopScheduler()
        }
        registry.scheduler("twoLoops", summary: "TwoLoopScheduler: claims serial, runs on two threads (broken on purpose)", contracts: [.serial]) {
            TwoLoopScheduler()
        }
    }
}
