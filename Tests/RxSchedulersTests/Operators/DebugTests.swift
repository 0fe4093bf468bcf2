import XCTest

@testable import RxSchedulers

final class DebugTests: XCTestCase {
    func testDebugLogsSubscriptionEventsAndDisposalAndPassesEventsOn() {
        var lines: [String] = []
        DebugLog.output.value = { lines.append($0) }
        defer { DebugLog.output.value = { print($0) } }
        var values: [Int] = []
        _ = Observable.of(1, 2).debug("numbers").subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2])
        XCTAssertEqual(
            lines.map { $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ") },
            ["numbers -> subscribed", "numbers -> Event next(1)", "numbers -> Event next(2)", "numbers -> Event completed", "numbers -> isDisposed"])
        XCTAssertNotNil(lines.first?.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}: "#, options: .regularExpression), lines.first ?? "")
    }

    func testDebugNamesTheCallSiteAndTrimsLongEvents() {
        var lines: [String] = []
        DebugLog.output.value = { lines.append($0) }
        defer { DebugLog.output.value = { print($0) } }
        let callLine = #line + 1
        _ = Observable.just(String(repeating: "x", count: 60)).debug(trimOutput: true).subscribe()
        XCTAssertTrue(lines[0].contains("DebugTests.swift:\(callLine) (testDebugNamesTheCallSiteAndTrimsLongEvents()) -> subscribed"), lines[0])
        XCTAssertTrue(lines[1].hasSuffix("-> Event next(xxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxx)"), lines[1])
    }
}
