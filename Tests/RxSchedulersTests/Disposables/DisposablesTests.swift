import Foundation
import XCTest

@testable import RxSchedulers

final class DisposablesTests: RxTestCase {
    func testCreateWithRunsActionOnce() {
        var count = 0
        let disposable = Disposables.create { count += 1 }
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        XCTAssertEqual(count, 1)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testBinaryAndArrayCreateDisposeAll() {
        var disposed: [Int] = []
        let binary = Disposables.create(Disposables.create { disposed.append(1) }, Disposables.create { disposed.append(2) })
        binary.dispose()
        binary.dispose()
        XCTAssertEqual(disposed, [1, 2])
        disposed = []
        let many = Disposables.create((0..<5).map { index in Disposables.create { disposed.append(index) } })
        many.dispose()
        XCTAssertEqual(disposed, [0, 1, 2, 3, 4])
    }

    func testBooleanDisposable() {
        let disposable = BooleanDisposable()
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertTrue(BooleanDisposable(isDisposed: true).isDisposed)
    }

    func testSingleAssignmentDisposesLateAssignment() {
        let single = SingleAssignmentDisposable()
        single.dispose()
        let inner = BooleanDisposable()
        single.setDisposable(inner)
        XCTAssertTrue(inner.isDisposed)
    }

    func testSingleAssignmentDisposesAssignedOnce() {
        let single = SingleAssignmentDisposable()
        var count = 0
        single.setDisposable(Disposables.create { count += 1 })
        XCTAssertFalse(single.isDisposed)
        single.dispose()
        single.dispose()
        XCTAssertEqual(count, 1)
        XCTAssertTrue(single.isDisposed)
    }

    func testCompositeInsertRemoveDispose() {
        let composite = CompositeDisposable()
        let first = BooleanDisposable()
        let second = BooleanDisposable()
        let firstKey = composite.insert(first)!
        _ = composite.insert(second)
        XCTAssertEqual(composite.count, 2)
        composite.remove(for: firstKey)
        XCTAssertTrue(first.isDisposed, "remove(for:) disposes the removed item")
        XCTAssertEqual(composite.count, 1)
        composite.remove(for: firstKey)
        XCTAssertEqual(composite.count, 1, "removing twice is harmless")
        composite.dispose()
        XCTAssertTrue(second.isDisposed)
        XCTAssertTrue(composite.isDisposed)
        let late = BooleanDisposable()
        XCTAssertNil(composite.insert(late))
        XCTAssertTrue(late.isDisposed, "insert after dispose disposes at once")
    }

    func testCompositeInitializers() {
        let items = (0..<3).map { _ in BooleanDisposable() }
        CompositeDisposable(items[0], items[1]).dispose()
        XCTAssertTrue(items[0].isDisposed && items[1].isDisposed)
        let more = (0..<3).map { _ in BooleanDisposable() }
        CompositeDisposable(more[0], more[1], more[2]).dispose()
        XCTAssertTrue(more.allSatisfy(\.isDisposed))
        let array = (0..<4).map { _ in BooleanDisposable() }
        CompositeDisposable(disposables: array).dispose()
        XCTAssertTrue(array.allSatisfy(\.isDisposed))
        let five = (0..<5).map { _ in BooleanDisposable() }
        let composite = CompositeDisposable(five[0], five[1], five[2], five[3], five[4])
        XCTAssertEqual(composite.count, 5)
        composite.dispose()
        XCTAssertTrue(five.allSatisfy(\.isDisposed))
        let four = (0..<4).map { _ in BooleanDisposable() }
        Disposables.create(four[0], four[1], four[2], four[3]).dispose()
        XCTAssertTrue(four.allSatisfy(\.isDisposed))
    }

    /// RxSwift's RefCountDisposable: the underlying disposable goes when the primary and
    /// every retained dependent have been disposed, in either order, once.
    func testRefCountDisposableWaitsForEveryDependent() {
        let underlying = BooleanDisposable()
        let refCount = RefCountDisposable(disposable: underlying)
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        XCTAssertFalse(underlying.isDisposed, "two dependents are outstanding")
        first.dispose()
        first.dispose()
        XCTAssertFalse(underlying.isDisposed, "disposing a dependent twice releases once")
        XCTAssertFalse(refCount.isDisposed)
        second.dispose()
        XCTAssertTrue(underlying.isDisposed)
        XCTAssertTrue(refCount.isDisposed)
        refCount.retain().dispose()  // a nop after the end

        let early = BooleanDisposable()
        let dependentsFirst = RefCountDisposable(disposable: early)
        dependentsFirst.retain().dispose()
        XCTAssertFalse(early.isDisposed, "dependents alone never dispose it")
        dependentsFirst.dispose()
        XCTAssertTrue(early.isDisposed)
    }

    func testDisposeBagTakesListsArraysAndBuilders() {
        let items = (0..<9).map { _ in BooleanDisposable() }
        do {
            let variadic = DisposeBag(disposing: items[0], items[1])
            let array = DisposeBag(disposing: [items[2]])
            let built = DisposeBag {
                items[3]
                items[4]
            }
            variadic.insert(items[5], items[6])
            array.insert([items[7]])
            built.insert {
                items[8]
            }
            XCTAssertFalse(items.contains(where: \.isDisposed), "nothing is disposed while the bags live")
        }
        XCTAssertTrue(items.allSatisfy(\.isDisposed))
    }

    func testSerialDisposableReplacesAndDisposes() {
        let serial = SerialDisposable()
        let first = BooleanDisposable()
        let second = BooleanDisposable()
        serial.disposable = first
        serial.disposable = second
        XCTAssertTrue(first.isDisposed)
        XCTAssertFalse(second.isDisposed)
        serial.dispose()
        XCTAssertTrue(second.isDisposed)
        let third = BooleanDisposable()
        serial.disposable = third
        XCTAssertTrue(third.isDisposed, "setting after dispose disposes at once")
    }

    func testDisposeBagDisposesOnDeinit() {
        let disposable = BooleanDisposable()
        do {
            let bag = DisposeBag()
            disposable.disposed(by: bag)
            XCTAssertFalse(disposable.isDisposed)
        }
        XCTAssertTrue(disposable.isDisposed)
    }

    func testScheduledDisposableDisposesOnScheduler() {
        let queueKey = DispatchSpecificKey<Int>()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "scheduled-dispose") {
            $0.setSpecific(key: queueKey, value: 7)
        }
        let disposedOn = Locked<Int?>(nil)
        let done = expectation(description: "disposed")
        let inner = Disposables.create {
            disposedOn.withValue { $0 = DispatchQueue.getSpecific(key: queueKey) }
            done.fulfill()
        }
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: inner)
        scheduled.dispose()
        XCTAssertTrue(scheduled.isDisposed)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(disposedOn.current, 7, "the inner disposable ran on the scheduler's queue")
    }
}
