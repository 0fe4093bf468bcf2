// swift-tools-version:6.1
import PackageDescription

// A user's package: its own scheduler (an event loop on one thread), measured and
// stress-tested by SchedulerBench through the entry point `SchedulerBenchCommand`.
let package = Package(
    name: "CustomScheduler",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In your package: .package(url: "https://github.com/<you>/SchedulerBench", from: "…").
        .package(name: "SchedulerBench", path: "../..")
    ],
    targets: [
        // The scheduler itself, as the team ships it: it knows nothing of SchedulerBench.
        .target(
            name: "EventLoopScheduler",
            dependencies: [.product(name: "RxSchedulers", package: "SchedulerBench")]
        ),
        // The bench: SchedulerBench's whole command line over the built-ins and these entries.
        .executableTarget(
            name: "EventLoopBench",
            dependencies: [
                "EventLoopScheduler",
                .product(name: "RxSchedulers", package: "SchedulerBench"),
                .product(name: "SchedulerBench", package: "SchedulerBench"),
            ]
        ),
    ]
)
