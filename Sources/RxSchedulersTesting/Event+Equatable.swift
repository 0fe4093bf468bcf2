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

/// A maybe's outcomes compare as events do.
extension MaybeEvent: Equatable where Element: Equatable {
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.success(left), .success(right)): return left == right
        case let (.error(left), .error(right)): return errorsEqual(left, right)
        default: return false
        }
    }
}

/// A completable's outcomes compare as events do.
extension CompletableEvent: Equatable {
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.error(left), .error(right)): return errorsEqual(left, right)
        default: return false
        }
    }
}

/// Whether two single outcomes are equal (`SingleEvent` is `Result`, whose own `==`
/// needs an `Equatable` failure; errors compare as in `Event`).
func singleEventsEqual<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case let (.success(left), .success(right)): return left == right
    case let (.failure(left), .failure(right)): return errorsEqual(left, right)
    default: return false
    }
}
