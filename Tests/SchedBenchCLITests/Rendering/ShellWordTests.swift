import XCTest

@testable import SchedBenchCLI

final class ShellWordTests: XCTestCase {
    func testPlainWordsStayAsTheyAre() {
        XCTAssertEqual(ShellWord.quoted("/work/.build-seeded/build/release/schedbench-builtins"), "/work/.build-seeded/build/release/schedbench-builtins")
        XCTAssertEqual(ShellWord.quoted("a=b,c:d@e%f+g"), "a=b,c:d@e%f+g")
    }

    func testAnythingAShellReadsIsSingleQuoted() {
        XCTAssertEqual(ShellWord.quoted("/my builds/x"), "'/my builds/x'")
        XCTAssertEqual(ShellWord.quoted("it's"), "'it'\\''s'")
        XCTAssertEqual(ShellWord.quoted("$HOME;rm"), "'$HOME;rm'")
        XCTAssertEqual(ShellWord.quoted("é"), "'é'")
        XCTAssertEqual(ShellWord.quoted(""), "''")
    }
}
