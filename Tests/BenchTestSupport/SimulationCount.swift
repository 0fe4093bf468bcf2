import Foundation

/// How many of `samples` satisfy `holds`, evaluated on every core.
///
/// For the rate measurements by simulation: the samples are drawn first, in order, from one
/// seeded stream, so the count is the one a sequential loop gives; only the evaluation (a
/// comparison per sample, the costly part) runs in parallel. `holds` must not touch shared
/// mutable state.
public func countInParallel<Sample>(_ samples: [Sample], where holds: (Sample) -> Bool) -> Int {
    var outcomes = [Bool](repeating: false, count: samples.count)
    outcomes.withUnsafeMutableBufferPointer { outcomes in
        // Each iteration writes only its own element.
        nonisolated(unsafe) let outcomes = outcomes
        DispatchQueue.concurrentPerform(iterations: samples.count) { index in
            outcomes[index] = holds(samples[index])
        }
    }
    return outcomes.count { $0 }
}
