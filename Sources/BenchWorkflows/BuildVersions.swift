import BenchAnalysis
import BenchChild

/// The versions of what this build speaks to other builds and stores, for the command
/// line's `--version`: the child protocol (a gate's two builds must speak the same) and the
/// history schema (a history of a newer one is refused).
package enum BuildVersions {
    package static var childProtocol: Int { ChildRequest.currentVersion }
    package static var historySchema: String { HistorySchema.currentVersion }
}
