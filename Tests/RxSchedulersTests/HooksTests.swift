import RxSchedulers
import RxSchedulersTesting
import XCTest

/// `Hooks`: the handler of errors no subscriber handles, and the call stacks it receives.
final class HooksTests: RxTestCase {
    override func tearDown() {
        Hooks.defaultErrorHandler = { _, _ in }
        Hooks.customCaptureSubscriptionCallstack = { Thread.callStackSymbols }
        Hooks.recordCallStackOnError = false
        super.tearDown()
    }

    func testAnUnhandledErrorGoesToTheDefaultHandler() {
        let logged = Locked<[TestError]>([])
        Hooks.defaultErrorHandler = { _, error in logged.withValue { $0.append(error as! TestError) } }
        _ = Observable<Int>.error(TestError(1)).subscribe()
        _ = Single<Int>.error(TestError(2)).subscribe()
        _ = Maybe<Int>.error(TestError(3)).subscribe()
        _ = Completable.error(TestError(4)).subscribe()
        _ = Observable<Int>.error(TestError(5)).subscribe(onError: { _ in })
        XCTAssertEqual(logged.current, [TestError(1), TestError(2), TestError(3), TestError(4)], "a handled error is not passed on")
    }

    func testTheCallStackIsCapturedAtSubscriptionOnlyWhenAsked() {
        var stacks: [[String]] = []
        Hooks.defaultErrorHandler = { stack, _ in stacks.append(stack) }
        Hooks.customCaptureSubscriptionCallstack = { ["frame"] }
        _ = Observable<Int>.error(TestError()).subscribe()
        Hooks.recordCallStackOnError = true
        _ = Observable<Int>.error(TestError()).subscribe()
        XCTAssertEqual(stacks, [[], ["frame"]])
    }
}
