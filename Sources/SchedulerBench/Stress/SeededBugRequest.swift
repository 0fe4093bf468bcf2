import BenchModel
import Foundation

/// The seeded bug a stress run was asked to run with: `RXSCHEDULERS_SEEDED_BUG`, which
/// only a build of the seeded-bug catalogue honours (scripts/seeded-bugs.py plants the
/// bugs in a copy of the core; the core's own sources hold none). Such a build checks the
/// name itself before `main` (an unknown one exits 64, naming the valid ones) and says so
/// in `RXSCHEDULERS_SEEDED_BUILD`.
package enum SeededBugRequest {
    /// The bug asked for, if any.
    package static var requested: String? {
        ProcessInfo.processInfo.environment[StressResult.seededBugVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether this executable was built with the catalogue planted: its switch, run
    /// before `main`, says so in the environment.
    package static var isSeededBuild: Bool { ProcessInfo.processInfo.environment["RXSCHEDULERS_SEEDED_BUILD"] == "1" }
}
