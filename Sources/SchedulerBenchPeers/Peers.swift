import SchedulerBench

/// The peers SchedulerBench compares the core with, registered through the public API as
/// any package's own entries are: `schedbench-builtins` registers them, and a user's
/// executable can too (`Peers.register(in: &registry)`), to compare its scheduler with
/// SwiftNIO, Swift concurrency, OpenCombine and swift-async-algorithms in the same run.
///
/// OpenCombine's and AsyncChannel's hand-offs are in the quick suite; the SwiftNIO loop and
/// the executor actor are not (they run in `default` and `full`, and whenever named).
public enum Peers {
    /// Registers OpenCombine's `receive(on:)` and swift-async-algorithms' `AsyncChannel`
    /// (hand-offs), the SwiftNIO event loop (a scheduler and a hand-off) and the
    /// custom-executor actor (a scheduler).
    public static func register(in registry: inout Registry) {
        registry.handOff("openCombine", summary: "OpenCombine 0.14 PassthroughSubject.receive(on: a serial DispatchQueue).sink") { deliver in
            OpenCombineHandOff(deliver: deliver)
        }
        registry.handOff("asyncChannel", summary: "swift-async-algorithms 1.1 AsyncChannel (back-pressured send), read by one Task") { deliver in
            AsyncChannelHandOff(deliver: deliver)
        }
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
