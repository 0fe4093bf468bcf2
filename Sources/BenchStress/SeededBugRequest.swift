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

    /// Why the request cannot be honoured here: a build without the catalogue would run
    /// the scenarios without the bug and pass, which must not pass for a catch.
    package static var problem: String? {
        guard let requested else { return nil }
        guard ProcessInfo.processInfo.environment["RXSCHEDULERS_SEEDED_BUILD"] == "1" else {
            return "\(StressResult.seededBugVariable)='\(requested)' is set, but this build has no seeded bugs: "
                + "build the catalogue with scripts/seeded-bugs.py build"
        }
        return nil
    }
}
