import Foundation

/// Maps a virtual clock onto real dates and intervals for a `VirtualTimeScheduler`.
public protocol VirtualTimeConverterType {
    /// A reading of the virtual clock.
    associatedtype VirtualTimeUnit
    /// A difference between two virtual clock readings.
    associatedtype VirtualTimeIntervalUnit

    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison {
    case lessThan
    case equal
    case greaterThan
}
