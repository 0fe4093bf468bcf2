import Foundation

/// Virtual time as dates and intervals as seconds, for `HistoricalScheduler`.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
    public typealias VirtualTimeUnit = RxTime
    public typealias VirtualTimeIntervalUnit = TimeInterval

    public init() {}

    public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }
    public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval { virtualTimeInterval }
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval { timeInterval }

    public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime {
        time.addingTimeInterval(offset)
    }

    public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
        switch lhs.compare(rhs) {
        case .orderedAscending: return .lessThan
        case .orderedSame: return .equal
        case .orderedDescending: return .greaterThan
        }
    }
}
