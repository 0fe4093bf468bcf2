import XCTest

@testable import RxSchedulers

/// One chunk's slots, driven directly: which results a run leaves for its handle, and
/// that only `NopDisposable` counts as holding nothing.
final class ActionChunkTests: RxTestCase {
    /// Empty like `NopDisposable`, but its `dispose` is observable: a result that must
    /// be kept for its handle.
    private struct CountingEmptyDisposable: Disposable {
        static let disposals = Locked(0)
        func dispose() { Self.disposals.withValue { $0 += 1 } }
    }

    private final class Token: Disposable {
        func dispose() {}
    }

    func testTheSlotLayoutHoldsOnThisPlatform() {
        XCTAssertTrue(ActionChunk.layoutHolds, "a result's type word is where the run reads it")
    }

    /// A `NopDisposable` result is left in place: nothing to keep, release or dispose.
    func testANopResultNeedsNeitherKeepingNorReleasing() {
        let chunk = ActionChunk()
        var ran = false
        chunk.store((), action: { _ in
            ran = true
            return Disposables.create()
        }, at: 0)
        XCTAssertFalse(chunk.run(at: 0), "a NopDisposable needs no handling")
        XCTAssertTrue(ran)
        chunk.dispose(at: 0)
        XCTAssertTrue(chunk.isDisposed(at: 0))
        chunk.reset(upTo: 1)
    }

    /// Results of every other type are handed to the caller, even an empty struct whose
    /// layout matches `NopDisposable`'s, and a kept one is disposed by its handle, once.
    func testEveryOtherResultIsHandedBackAndDisposedThroughItsHandle() {
        let chunk = ActionChunk()
        let before = CountingEmptyDisposable.disposals.current
        chunk.store((), action: { _ in CountingEmptyDisposable() }, at: 0)
        XCTAssertTrue(chunk.run(at: 0), "an empty struct other than NopDisposable is a result to keep")
        chunk.keepResult(at: 0)
        chunk.dispose(at: 0)
        chunk.dispose(at: 0)
        XCTAssertEqual(CountingEmptyDisposable.disposals.current, before + 1)

        weak var released: Token?
        chunk.store(7, action: { _ in
            let token = Token()
            released = token
            return token
        }, at: 1)
        XCTAssertTrue(chunk.run(at: 1))
        XCTAssertNotNil(released)
        chunk.releaseResult(at: 1)
        XCTAssertNil(released, "released at once when no handle can dispose it")
        chunk.reset(upTo: 2)
    }

    /// A boxed state's action, and one queued through the protocol (unspecialized),
    /// return their results the same way.
    func testBoxedAndUnspecializedActionsHandBackTheirResults() {
        let chunk = ActionChunk()
        let large = (1, 2, 3, 4, 5)
        chunk.store(large, action: { state in
            XCTAssertEqual(state.4, 5)
            return Token()
        }, at: 0)
        XCTAssertTrue(chunk.run(at: 0))
        chunk.releaseResult(at: 0)
        chunk.store(large, action: { _ in Disposables.create() }, at: 1)
        XCTAssertFalse(chunk.run(at: 1))
        chunk.reset(upTo: 2)
    }
}
