import BenchMeasure
import BenchModel
import BenchStress

/// What a `_child` process runs: the child protocol's service (`ChildService`, measuring
/// layer) with the stress layer's scenarios behind its `.stress` requests. The executable
/// that answers `_child` calls this and nothing else.
package enum ChildEntryPoint {
    /// Reads one request from standard input, serves it, and returns once the reply is
    /// written to file descriptor 3.
    package static func serve() {
        ChildService.serve { scenario, options, observer, cancellation in
            StressRunner.run(scenario, options: options, observer: observer, cancellation: cancellation)
        }
    }
}
