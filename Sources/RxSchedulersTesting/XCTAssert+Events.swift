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
