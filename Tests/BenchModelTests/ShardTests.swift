import XCTest

@testable import BenchModel

final class ShardTests: XCTestCase {
    func testEveryCaseIsInExactlyOneShardAndSharesDifferByAtMostOne() {
        for total in 0...23 {
            let plan = Array(0..<total)
            for count in 1...6 {
                let shares = (1...count).map { Shard(index: $0, count: count).select(plan) }
                XCTAssertEqual(shares.flatMap { $0 }.sorted(), plan, "\(total) in \(count)")
                let sizes = shares.map(\.count)
                XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 1, "\(total) in \(count): \(sizes)")
                for share in shares { XCTAssertEqual(share, share.sorted(), "a share keeps plan order") }
                XCTAssertEqual(Shard.interleave(shares), plan, "\(total) in \(count)")
            }
        }
    }

    func testTheSameShardOfTheSamePlanIsTheSameCases() {
        let plan = ["a", "b", "c", "d", "e", "f", "g"]
        XCTAssertEqual(Shard(index: 2, count: 3).select(plan), ["b", "e"])
        XCTAssertEqual(Shard(index: 2, count: 3).select(plan), Shard(index: 2, count: 3).select(plan))
        XCTAssertEqual(Shard(index: 1, count: 1).select(plan), plan)
    }

    func testSharesOfTheWrongSizesDoNotInterleave() {
        XCTAssertNil(Shard.interleave([[1, 3], [2, 4], []]), "shards 2 and 3 of 3 of a 4-case plan have a case each")
        XCTAssertEqual(Shard.interleave([[1, 4], [2], [3]]), [1, 2, 3, 4])
        XCTAssertNil(Shard.interleave([[Int]]()))
        XCTAssertEqual(Shard.interleave([[1, 3], [2, 4]]), [1, 2, 3, 4])
    }

    func testParsingNamesWhatIsWrong() throws {
        XCTAssertEqual(try Shard(parsing: "2/4"), Shard(index: 2, count: 4))
        for (text, problem) in [
            ("2", "is not K/N"), ("a/4", "is not K/N"), ("2/4/1", "is not K/N"), ("", "is not K/N"), ("0/4", "K must be 1...4"),
            ("5/4", "K must be 1...4"), ("1/0", "N must be 1...256"), ("1/257", "N must be 1...256"), ("-1/4", "K must be"),
        ] {
            XCTAssertThrowsError(try Shard(parsing: text), text) { error in
                guard case BenchError.usage(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains(problem), "\(text): \(message)")
            }
        }
    }
}
