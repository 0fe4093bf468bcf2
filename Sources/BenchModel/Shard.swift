/// One share of a run's planned cases, so that a run or a gate can be split across
/// machines (the jobs of a CI matrix) and merged back into one (`schedbench merge`).
///
/// Shard K of N takes the cases at positions K−1, K−1+N, K−1+2N, … of the plan: the same
/// plan always gives the same shares, every case is in exactly one, their sizes differ by
/// at most one case, and each share samples every workload of a suite (the plan lists a
/// workload's cases together), so shards take about as long as one another.
package struct Shard: Codable, Hashable, Sendable, CustomStringConvertible {
    /// K, from 1.
    package var index: Int
    /// N, the number of shards.
    package var count: Int

    /// The most shards a run is split into.
    package static let maximumCount = 256

    package init(index: Int, count: Int) {
        precondition((1...count).contains(index), "shard \(index) of \(count)")
        self.index = index
        self.count = count
    }

    /// Reads `K/N` (`2/4`); throws `BenchError.usage` saying what is wrong with `text`.
    package init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw BenchError.usage("--shard '\(text)' is not K/N (for example 2/4: the second of four shards)")
        }
        guard (1...Self.maximumCount).contains(count) else {
            throw BenchError.usage("--shard '\(text)': N must be 1...\(Self.maximumCount)")
        }
        guard (1...count).contains(index) else {
            throw BenchError.usage("--shard '\(text)': K must be 1...\(count)")
        }
        self.init(index: index, count: count)
    }

    /// This shard's share of `plan`, in plan order.
    package func select<Element>(_ plan: [Element]) -> [Element] {
        plan.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// The whole plan again from every shard's share (`shares[k]` is shard k+1's, in plan
    /// order): the inverse of `select`. Nil when the shares' sizes are not the ones `select`
    /// gives for a plan of their total.
    package static func interleave<Element>(_ shares: [[Element]]) -> [Element]? {
        let total = shares.reduce(0) { $0 + $1.count }
        let count = shares.count
        guard count > 0 else { return nil }
        for (offset, share) in shares.enumerated() where share.count != (total - offset + count - 1) / count {
            return nil
        }
        return (0..<total).map { shares[$0 % count][$0 / count] }
    }

    package var description: String { "\(index)/\(count)" }
}
