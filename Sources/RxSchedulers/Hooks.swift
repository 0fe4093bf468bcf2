import Synchronization
import Foundation

/// Process-wide handlers for what a subscription does not handle itself: RxSwift's
/// `Hooks`, with its names.
///
/// - `defaultErrorHandler` receives an error that reached a `subscribe(onNext:…)` (or a
///   trait's `subscribe(onSuccess:…)`) given no error handler. The default does nothing
///   (RxSwift's prints in its debug builds).
/// - With `recordCallStackOnError`, each such subscription captures a call stack with
///   `customCaptureSubscriptionCallstack` when it subscribes (which costs what capturing
///   costs, per subscription; off by default, when subscribing reads one flag), and the
///   error handler receives it.
///
/// Reading and setting them is thread-safe.
public enum Hooks {
    /// Receives an unhandled error and the subscription's captured call stack (empty
    /// unless `recordCallStackOnError`).
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void
    /// Captures the call stack of a subscription.
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    private static let lock = Lock()
    nonisolated(unsafe) private static var errorHandler: DefaultErrorHandler = { _, _ in }
    nonisolated(unsafe) private static var captureCallStack: CustomCaptureSubscriptionCallstack = { Thread.callStackSymbols }
    private static let recordsCallStack = Atomic<Bool>(false)

    /// What an unhandled error is given to.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { lock.performLocked { errorHandler } }
        set { lock.performLocked { errorHandler = newValue } }
    }

    /// How a subscription captures its call stack (default: `Thread.callStackSymbols`).
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { lock.performLocked { captureCallStack } }
        set { lock.performLocked { captureCallStack = newValue } }
    }

    /// Whether subscriptions capture their call stack for `defaultErrorHandler`.
    public static var recordCallStackOnError: Bool {
        get { recordsCallStack.load(ordering: .relaxed) }
        set { recordsCallStack.store(newValue, ordering: .relaxed) }
    }

    /// The call stack a subscription without an error handler keeps: captured only when
    /// `recordCallStackOnError` is on.
    @usableFromInline
    static func subscriptionCallStack() -> [String] {
        recordCallStackOnError ? customCaptureSubscriptionCallstack() : []
    }
}
