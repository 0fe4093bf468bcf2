import Foundation

/// A deliberate fault, for checking that the harness catches what it claims to catch
/// (`SCHEDBENCH_INJECT_FAULT=duplicate` makes `observeOn.throughput`'s first producer send
/// its first event twice; the run must then fail with exit 3). Never set in real runs.
enum FaultInjection: String, Sendable {
    case duplicate

    static let environmentKey = "SCHEDBENCH_INJECT_FAULT"

    static let current: FaultInjection? =
        ProcessInfo.processInfo.environment[environmentKey].flatMap(FaultInjection.init(rawValue:))
}
