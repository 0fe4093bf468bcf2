/// Which scheduler a case runs on: a scheduler registered under this name. `none` marks
/// the cases that use no Rx scheduler (the hand-offs: context baselines and peer frameworks).
package struct SchedulerName: OpenName {
    package let rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }

    package static let currentThread = Self("currentThread")
    package static let main = Self("main")
    package static let mainShared = Self("mainShared")
    package static let mainAsync = Self("mainAsync")
    package static let serial = Self("serial")
    package static let concurrent = Self("concurrent")
    package static let concurrentMain = Self("concurrentMain")
    package static let operationQueue = Self("operationQueue")
    package static let virtual = Self("virtual")
    /// No Rx scheduler: the hand-offs run their own consumer.
    package static let none = Self("none")
}
