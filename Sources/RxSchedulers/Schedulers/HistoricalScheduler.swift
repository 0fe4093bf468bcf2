import Foundation

/// A virtual-time scheduler whose clock is a `Date`, for replaying recorded history.
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter> {
    /// A scheduler with its clock at `initialClock` (default: the epoch).
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}
