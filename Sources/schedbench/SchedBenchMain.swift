import SchedulerBench
import SchedulerBenchPeers

/// `schedbench`: SchedulerBench's command line over the built-ins and the peers
/// (SwiftNIO, a custom-executor actor), which it registers as any package registers its own.
@main
struct SchedBenchMain: SchedulerBenchCommand {
    static func register(in registry: inout Registry) {
        Peers.register(in: &registry)
    }
}
