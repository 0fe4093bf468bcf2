import Synchronization

/// Something a subscriber can be removed from by key.
protocol UnsubscribeType: AnyObject {
    func unsubscribe(_ key: BagKey)
}

/// The disposable a subject returns from `subscribe`: it removes that subscriber once.
///
/// It holds the subject weakly, as RxSwift's does: the subject holds the subscriber, and a
/// subscriber's chain usually holds this disposable, so a strong reference would keep a
/// subject that nobody else holds, and its subscribers, alive forever when the
/// subscription is never disposed.
final class SubjectSubscription: Disposable, @unchecked Sendable {
    private let disposed = Atomic<Bool>(false)
    private weak var owner: UnsubscribeType?
    private let key: BagKey

    init(owner: UnsubscribeType, key: BagKey) {
        self.owner = owner
        self.key = key
        Resources.incrementTotal()
    }

    deinit { Resources.decrementTotal() }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let owner = self.owner
        self.owner = nil
        owner?.unsubscribe(key)
    }
}
