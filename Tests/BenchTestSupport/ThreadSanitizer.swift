import Foundation
import XCTest

/// Whether this test process runs under ThreadSanitizer.
public let runsUnderThreadSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// Skips a test that measures an error rate by simulation: single-threaded arithmetic that
/// ThreadSanitizer has nothing to check in, and that it slows tenfold.
public func skipRateMeasurementUnderThreadSanitizer() throws {
    try XCTSkipIf(runsUnderThreadSanitizer, "rate measurement: arithmetic only, nothing for ThreadSanitizer")
}
