import Foundation
import RxSchedulers

/// Events compare equal when they are the same kind with equal elements; errors
/// compare by type and description (errors are not `Equatable`).
extension Event: Equatable where Element: Equatable {
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.next(left), .next(right)): return left == right
        case let (.error(left), .error(right)): return errorsEqual(left, right)
        default: return false
        }
    }
}

/// Whether two errors are the same: same dynamic type and the same reflection, or the
/// same `NSError` domain and code.
func errorsEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    if type(of: lhs) == type(of: rhs), String(reflecting: lhs) == String(reflecting: rhs) { return true }
    let left = lhs as NSError
    let right = rhs as NSError
    return left.domain == right.domain && left.code == right.code
}
