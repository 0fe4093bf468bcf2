import BenchModel
import Foundation

/// `shard.json`, in the results directory of a run or a gate made with `--shard K/N`: which
/// share of which plan the directory holds, so that `schedbench merge` can check that the
/// shards it is given are all of one plan, each there once, and complete.
///
///     {"kind": "run", "shard": {"index": 2, "count": 4}, "plan": "9c1f…", "planned": 313,
///      "cases": [ …this shard's cases… ]}
package struct ShardFile: Codable, Sendable, Equatable {
    /// What the directory holds: a run's results, or a gate's `baseline/` and `candidate/`.
    package enum Kind: String, Codable, Sendable {
        case run
        case gate
    }

    package var kind: Kind
    package var shard: Shard
    /// The whole plan's fingerprint (`fingerprint(of:)`): equal in every shard of one plan.
    package var plan: String
    /// The cases of the whole plan.
    package var planned: Int
    /// This shard's cases, in plan order.
    package var cases: [BenchCase]
    /// A gate's rounds (each case of each side then holds trials 1...rounds); nil for a run.
    package var rounds: Int?
    /// The rounds a gate that counts instructions adds for the cases whose count changed
    /// (those cases hold trials 1...rounds + confirmationRounds); nil when it adds none.
    package var confirmationRounds: Int?

    package init(kind: Kind, shard: Shard, plan: [BenchCase], rounds: Int? = nil) {
        self.kind = kind
        self.shard = shard
        self.plan = Self.fingerprint(of: plan)
        self.planned = plan.count
        self.cases = shard.select(plan)
        self.rounds = rounds
    }

    package static let fileName = "shard.json"

    /// A fingerprint of `plan`: FNV-1a (64 bits) over every case's columns, in order.
    package static func fingerprint(of plan: [BenchCase]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for benchCase in plan {
            for byte in (benchCase.columnValues.joined(separator: ",") + "\n").utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Writes the file atomically into `directory` (which must exist).
    package func write(to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: directory.appendingPathComponent(Self.fileName))
    }

    /// Removes a shard file an earlier run left in `directory` (a whole run replacing a shard's results).
    package static func remove(in directory: URL) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(fileName))
    }

    /// The shard file in `directory`, nil when it has none; one that cannot be read is
    /// `BenchError.unreadable`.
    package static func read(in directory: URL) throws -> ShardFile? {
        let file = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(ShardFile.self, from: data)
        } catch {
            throw BenchError.unreadable(path: file.path, problem: "is not a shard description written by `--shard K/N`")
        }
    }
}
