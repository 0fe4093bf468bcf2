import BenchModel
import Foundation

/// Collects invariant violations from any thread: the count, and the first few
/// descriptions for the error message. Violations are rare, so a lock is fine.
package final class InvariantReport: Sendable {
    static let keptDescriptions = 5
    private let state = Locked((count: 0, descriptions: [String]()))

    package init() {}

    package func record(_ description: @autoclosure () -> String) {
        state.withLock { state in
            state.count += 1
            if state.descriptions.count < Self.keptDescriptions { state.descriptions.append(description()) }
        }
    }

    package var count: Int { state.withLock { $0.count } }
    package var descriptions: [String] { state.withLock { $0.descriptions } }

    /// The kept descriptions, as samples of a trial of `phase`.
    package func samples(_ phase: ViolationSample.Phase, trial: Int) -> [ViolationSample] {
        descriptions.map { ViolationSample(phase: phase, trial: trial, description: $0) }
    }
}
