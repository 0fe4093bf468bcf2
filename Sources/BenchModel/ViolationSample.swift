/// One invariant violation as a checker described it, with where in a case it was seen:
/// a row of `violations.csv`. A case keeps the first few of each trial
/// (`InvariantReport.keptDescriptions`); the count of all of them is the trial's
/// `invariant_violations`.
package struct ViolationSample: Codable, Sendable, Equatable {
    /// The part of a case a trial belongs to.
    package enum Phase: String, Codable, Sendable, CaseIterable {
        /// An untimed warmup trial (its violations count against the first timed trial).
        case warmup
        /// A timed trial.
        case timed
        /// A counting trial (allocations or instructions; trial 0 in `results.csv`).
        case counting
    }

    /// The gate round whose process saw it (`gate`: round r of a side); 0 outside a gate.
    package var round: Int
    package var phase: Phase
    /// The trial within its phase: 1… for warmup and timed trials, 0 for counting.
    package var trial: Int
    /// What the checker saw.
    package var description: String

    package init(round: Int = 0, phase: Phase, trial: Int, description: String) {
        self.round = round
        self.phase = phase
        self.trial = trial
        self.description = description
    }

    /// Where it was seen, for a person: "round 4, timed trial 2".
    package var location: String {
        let within = phase == .counting ? "counting trial" : "\(phase.rawValue) trial \(trial)"
        return round > 0 ? "round \(round), \(within)" : within
    }
}
