/// How `observe(on:)` hands events to the scheduler. Every strategy keeps the same
/// guarantees (serialized, ordered delivery; one stop event; nothing after a dispose
/// made on the observing serial scheduler; resources released); they differ in cost.
public struct ObserveOnStrategy: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case reference
        case referenceGeneric
        case drain
    }

    @usableFromInline let kind: Kind
    /// Events one scheduled drain delivers before yielding the scheduler (`drain` only).
    public let batchSize: Int

    /// RxSwift's algorithms: one scheduled block per event on serial dispatch
    /// schedulers; a lock, a ring queue and one event per recursive schedule elsewhere.
    public static let reference = ObserveOnStrategy(kind: .reference, batchSize: 1)

    /// RxSwift's generic algorithm (a lock, a ring queue and one event per recursive
    /// schedule) on every scheduler, serial dispatch schedulers included, where RxSwift
    /// would pick per-event blocks: so that its two algorithms can be compared on the same
    /// scheduler. Elsewhere it is `reference`.
    public static let referenceGeneric = ObserveOnStrategy(kind: .referenceGeneric, batchSize: 1)

    /// The tuned default: a lock-free MPSC queue and an atomic work-in-progress counter.
    /// The first event of a burst schedules one drain, which delivers everything queued,
    /// yielding back to the scheduler after `batchSize` events so other work runs.
    public static let drain = ObserveOnStrategy.drain(batchSize: 128)

    /// `drain` with a chosen batch size (at least 1).
    public static func drain(batchSize: Int) -> ObserveOnStrategy {
        precondition(batchSize >= 1, "batchSize must be at least 1")
        return ObserveOnStrategy(kind: .drain, batchSize: batchSize)
    }

    /// The strategy `observe(on:)` uses when none is given.
    public static let `default` = drain

    /// Every strategy, by name.
    public static let all: [ObserveOnStrategy] = [.reference, .referenceGeneric, .drain]

    /// The strategy's stable name (`reference`, `referenceGeneric`, `drain`).
    public var name: String {
        switch kind {
        case .reference: return "reference"
        case .referenceGeneric: return "referenceGeneric"
        case .drain: return "drain"
        }
    }

    /// The strategy with this stable name, if any.
    public init?(name: String) {
        guard let match = Self.all.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    private init(kind: Kind, batchSize: Int) {
        self.kind = kind
        self.batchSize = batchSize
    }

    public var description: String {
        kind == .drain ? "drain(batchSize: \(batchSize))" : name
    }
}
