import SchedBenchCLI

/// `schedbench`: the tool. It measures nothing itself: it drives a measuring executable
/// (`schedbench-builtins` beside it, or the one `SCHEDBENCH_TARGET` names) through the
/// child protocol, and compares, gates, stores and reports what that measured.
@main
struct SchedBenchMain {
    static func main() { SchedBench.main() }
}
