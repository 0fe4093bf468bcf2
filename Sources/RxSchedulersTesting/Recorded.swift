import RxSchedulers

/// A virtual time in `TestScheduler` ticks.
public typealias TestTime = Int

/// A value recorded at a virtual time.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When the value was recorded.
    public let time: TestTime
    /// The value.
    public let value: Value

    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
    /// A `next(element)` event at `time`.
    public static func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .next(element))
    }

    /// A `completed` event at `time`.
    public static func completed<T>(_ time: TestTime, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .completed)
    }

    /// An `error` event at `time`.
    public static func error<T>(_ time: TestTime, _ error: Swift.Error, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .error(error))
    }

    /// The arguments as an array; helps type inference in tests.
    public static func events<T>(_ recordedEvents: Recorded<Event<T>>...) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }

    /// The argument, unchanged; helps type inference in tests.
    public static func events<T>(_ recordedEvents: [Recorded<Event<T>>]) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }
}
