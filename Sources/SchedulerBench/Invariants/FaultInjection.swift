import Foundation

/// A deliberate fault, for checking that the harness catches what it claims to catch
/// (`SCHEDBENCH_INJECT_FAULT=duplicate` makes `observeOn.throughput`'s first producer send
/// its first event twice; the run must then fail with exit 3). Never set in real runs.
public enum FaultInjection: String, CaseIterable, Sendable {
    case duplicate

    public static let environmentKey = "SCHEDBENCH_INJECT_FAULT"

    static let current: FaultInjection? =
        ProcessInfo.processInfo.environment[environmentKey].flatMap(FaultInjection.init(rawValue:))

    /// Why the environment's fault request cannot be honoured (a misspelt fault must not
    /// be silently ignored: the run would pass without testing anything), or nil.
    public static var environmentProblem: String? {
        guard let requested = ProcessInfo.processInfo.environment[environmentKey], FaultInjection(rawValue: requested) == nil else {
            return nil
        }
        return "\(environmentKey)='\(requested)' is not a fault the harness can inject; valid: "
            + allCases.map(\.rawValue).joined(separator: ", ")
    }
}
