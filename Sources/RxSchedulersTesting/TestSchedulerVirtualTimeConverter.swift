import Foundation
import RxSchedulers

/// Virtual time in integer ticks of `resolution` seconds, as RxTest's converter.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType {
    public typealias VirtualTimeUnit = Int
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        self.resolution = resolution
    }

    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * resolution)
    }

    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int(time.timeIntervalSince1970 / resolution + 0.5)
    }

    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval) * resolution
    }

    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Int(timeInterval / resolution + 0.5)
    }

    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time + offset
    }

    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}
