import SchedulerBench

/// The peer schedulers SchedulerBench compares the core with, registered through the
/// public API as any package's own entries are: `schedbench` registers them, and a user's
/// executable can too (`Peers.register(in: &registry)`), to compare its scheduler with
/// SwiftNIO and Swift concurrency in the same run.
///
/// Neither is in the quick suite (they run in `default` and `full`, and whenever named).
public enum Peers {
    /// Registers the SwiftNIO event loop (as a scheduler and as a hand-off) and the
    /// custom-executor actor (as a scheduler).
    public static func register(in registry: inout Registry) {
        registry.scheduler(
            "nioEventLoop",
            summary: "SwiftNIO 2 EventLoop (a MultiThreadedEventLoopGroup of one thread per trial) as an Rx SchedulerType: execute, scheduleTask",
            contracts: [.serial], inQuickSuite: false
        ) { NIOEventLoopScheduler() }
        registry.scheduler(
            "executorActor",
            summary: "each action a Task isolated to a global actor whose unownedExecutor is a SerialExecutor of ours over a serial DispatchQueue",
            contracts: [.serial], inQuickSuite: false
        ) { ExecutorActorScheduler() }
        registry.handOff(
            "nioExecute", summary: "SwiftNIO 2 EventLoop.execute per event (one loop thread per trial)", inQuickSuite: false
        ) { deliver in NIOHandOff(deliver: deliver) }
    }
}
