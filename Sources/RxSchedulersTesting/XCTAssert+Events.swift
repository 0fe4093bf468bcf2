import RxSchedulers
import XCTest

/// Asserts that two event sequences are equal, printing both when they differ.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Event<T>], _ rhs: [Event<T>], file: StaticString = #filePath, line: UInt = #line) {
    guard lhs != rhs else { return }
    XCTFail("Events differ:\nleft:  \(lhs)\nright: \(rhs)", file: file, line: line)
}

/// Asserts that two recorded event sequences are equal, printing both when they differ.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Recorded<Event<T>>], _ rhs: [Recorded<Event<T>>], file: StaticString = #filePath, line: UInt = #line)
{
    guard lhs != rhs else { return }
    XCTFail("Recorded events differ:\nleft:  \(lhs)\nright: \(rhs)", file: file, line: line)
}

/// Asserts that two sequences of optional-element events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Event<T?>], _ rhs: [Event<T?>], file: StaticString = #filePath, line: UInt = #line) {
    guard lhs != rhs else { return }
    XCTFail("Events differ:\nleft:  \(lhs)\nright: \(rhs)", file: file, line: line)
}

/// Asserts that two recorded sequences of optional-element events are equal.
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [Recorded<Event<T?>>], _ rhs: [Recorded<Event<T?>>], file: StaticString = #filePath, line: UInt = #line
) {
    guard lhs != rhs else { return }
    XCTFail("Recorded events differ:\nleft:  \(lhs)\nright: \(rhs)", file: file, line: line)
}

/// Asserts that two sequences of single outcomes are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [SingleEvent<T>], _ rhs: [SingleEvent<T>], file: StaticString = #filePath, line: UInt = #line) {
    guard lhs.count != rhs.count || zip(lhs, rhs).contains(where: { !singleEventsEqual($0, $1) }) else { return }
    XCTFail("Single events differ:\nleft:  \(lhs)\nright: \(rhs)", file: file, line: line)
}

/// Asserts that two sequences of maybe outcomes are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [MaybeEvent<T>], _ rhs: [MaybeEvent<T>], file: StaticString = #filePath, line: UInt = #line) {
    guard lhs != rhs else { return }
    XCTFail("Maybe events differ:\nleft:  \(lhs)\nright: \(rhs)", file: file, line: line)
}

/// Asserts that two sequences of completable outcomes are equal.
public func XCTAssertEqual(_ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line) {
    guard lhs != rhs else { return }
    XCTFail("Completable events differ:\nleft:  \(lhs)\nright: \(rhs)", file: file, line: line)
}

/// Asserts that `stream` holds exactly `elements`, as `next` events, and no stop event.
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line
) {
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        XCTFail("A stop event was recorded: \(stop)", file: file, line: line)
        return
    }
    let recorded = stream.compactMap { $0.value.element }
    guard recorded != elements else { return }
    XCTFail("Recorded elements differ:\nleft:  \(recorded)\nright: \(elements)", file: file, line: line)
}
