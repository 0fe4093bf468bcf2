import RxSchedulers
import RxSchedulersTesting
import XCTest

/// The two screens the harness models, checked in virtual time.
final class PipelineTests: RxTestCase {
    /// throttle → distinctUntilChanged → flatMapLatest(request) → observe(on:) → map(parse) → observe(on:).
    private func searchPipeline(
        queries: Observable<String>,
        requestLatency: Int,
        scheduler: TestScheduler
    ) -> Observable<[String]> {
        queries
            .throttle(.seconds(30), scheduler: scheduler)
            .distinctUntilChanged()
            .flatMapLatest { query -> Observable<String> in
                Observable.just("results:\(query)").delaySubscription(.seconds(requestLatency), scheduler: scheduler)
            }
            .observe(on: scheduler)
            .map { response in response.split(separator: ":").dropFirst().map(String.init) }
            .observe(on: scheduler)
    }

    func testSearchPipelineDropsStaleAndDuplicateQueries() {
        let scheduler = TestScheduler(initialClock: 0)
        let queries = scheduler.createHotObservable([
            .next(210, "r"), .next(215, "rx"),  // "r" out at once; "rx" at 240 cancels r's request
            .next(250, "rx"),  // duplicate of the last one sent
            .next(300, "rxs"), .next(305, "rxsw"),  // "rxsw" out at 330, supersedes "rxs" in flight
            .completed(600),
        ])
        let observer = scheduler.start { self.searchPipeline(queries: queries.asObservable(), requestLatency: 50, scheduler: scheduler) }
        // Each observe(on: TestScheduler) hop adds one tick of simulated processing delay.
        XCTAssertEqual(
            observer.events,
            [
                .next(292, ["rx"]),
                .next(382, ["rxsw"]),
                .completed(602),
            ])
    }

    enum Screen: Equatable {
        case loading
        case content(String)
    }

    /// amb(data, timer → loading, concat(data after a minimum spinner time) via delaySubscription).
    private func loadingPipeline(data: Observable<String>, scheduler: TestScheduler) -> Observable<Screen> {
        let content = data.map(Screen.content)
        let spinnerFirst = Observable<Int>.timer(.seconds(300), scheduler: scheduler)
            .map { _ in Screen.loading }
            .concat(content.delaySubscription(.seconds(200), scheduler: scheduler))
        return Observable.amb([content, spinnerFirst])
    }

    func testLoadingPipelineFastDataShowsNoSpinner() {
        let scheduler = TestScheduler(initialClock: 0)
        let data = scheduler.createColdObservable([.next(100, "page"), .completed(100)])
        let observer = scheduler.start(disposed: 2000) { self.loadingPipeline(data: data.asObservable(), scheduler: scheduler) }
        XCTAssertEqual(observer.events, [.next(300, .content("page")), .completed(300)])
        XCTAssertEqual(data.subscriptions, [Subscription(200, 300)])
    }

    func testLoadingPipelineSlowDataShowsSpinnerThenContent() {
        let scheduler = TestScheduler(initialClock: 0)
        let data = scheduler.createColdObservable([.next(400, "page"), .completed(400)])
        let observer = scheduler.start(disposed: 2000) { self.loadingPipeline(data: data.asObservable(), scheduler: scheduler) }
        // Spinner at 500; the first request is cancelled by amb; a new one starts at 700.
        XCTAssertEqual(observer.events, [.next(500, .loading), .next(1100, .content("page")), .completed(1100)])
        XCTAssertEqual(data.subscriptions, [Subscription(200, 500), Subscription(700, 1100)])
    }
}
