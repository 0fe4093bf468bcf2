import Dispatch
import Foundation

extension DispatchTimeInterval {
    /// This interval in seconds; `.never` is infinite.
    var seconds: TimeInterval {
        switch self {
        case .seconds(let value): return TimeInterval(value)
        case .milliseconds(let value): return TimeInterval(value) / 1_000
        case .microseconds(let value): return TimeInterval(value) / 1_000_000
        case .nanoseconds(let value): return TimeInterval(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: fatalError("Unknown DispatchTimeInterval \(self)")
        }
    }

    /// This interval in nanoseconds, saturating; `.never` is `Int.max`.
    var nanoseconds: Int {
        switch self {
        case .seconds(let value): return value.multipliedReportingOverflow(by: 1_000_000_000).overflow ? .max : value * 1_000_000_000
        case .milliseconds(let value): return value.multipliedReportingOverflow(by: 1_000_000).overflow ? .max : value * 1_000_000
        case .microseconds(let value): return value.multipliedReportingOverflow(by: 1_000).overflow ? .max : value * 1_000
        case .nanoseconds(let value): return value
        case .never: return .max
        @unknown default: fatalError("Unknown DispatchTimeInterval \(self)")
        }
    }

    /// Whether the interval is zero or negative.
    var isNow: Bool { nanoseconds <= 0 }

    /// What is left of this interval once the time between the two dates has passed.
    func reduced(bySpanFrom earlierDate: Date, to laterDate: Date) -> DispatchTimeInterval {
        let elapsed = laterDate.timeIntervalSince(earlierDate)
        return .nanoseconds(nanoseconds - Int((elapsed * 1_000_000_000).rounded()))
    }
}

extension Date {
    /// This date moved forward by `interval`.
    func adding(_ interval: DispatchTimeInterval) -> Date {
        addingTimeInterval(interval.seconds)
    }
}
