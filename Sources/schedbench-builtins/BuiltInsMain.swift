import SchedulerBench
import SchedulerBenchPeers

/// `schedbench-builtins`: the measuring executable of the built-ins and the peers
/// (SwiftNIO, a custom-executor actor, OpenCombine, AsyncChannel), which it registers as any
/// package registers its own. `schedbench` drives it; run directly, it hands its command
/// line to `schedbench`.
@main
struct BuiltInsMain: SchedulerBenchCommand {
    static func register(in registry: inout Registry) {
        Peers.register(in: &registry)
    }
}
