// swift-tools-version:6.1
import PackageDescription

// The core (RxSchedulers, RxSchedulersTesting and their tests) is written in the Swift 5
// language mode: like RxSwift, its schedulers, subjects and observers are shared across
// threads under the core's own locks and atomics, and its API takes plain closures, as
// RxSwift code written for it does; declaring them `Sendable` would change the API RxSwift
// users call (every closure passed to `subscribe` would have to be `@Sendable`).
let languageMode: [SwiftSetting] = [.swiftLanguageMode(.v5)]
// The engine and the command line are written in the Swift 6 language mode: their shared
// state is checked (`Locked`, atomics); where they hand the core's types to other threads,
// they say so (`nonisolated(unsafe)`, next to the reason).
let engineMode: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "SchedulerBench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxSchedulers", targets: ["RxSchedulers"]),
        .library(name: "RxSchedulersTesting", targets: ["RxSchedulersTesting"]),
        .library(name: "RxSchedulersCocoa", targets: ["RxSchedulersCocoa"]),
        .library(name: "RxSchedulersRelay", targets: ["RxSchedulersRelay"]),
        .library(name: "RxSchedulersBlocking", targets: ["RxSchedulersBlocking"]),
        // What a team's package links for its own scheduler: the runtime, and jemalloc.
        .library(name: "SchedulerBench", targets: ["SchedulerBench", "SchedulerBenchAllocator"]),
        .library(name: "SchedulerBenchPeers", targets: ["SchedulerBenchPeers"]),
        // The tool: run, list, compare, gate, stress, history, report, export.
        .executable(name: "schedbench", targets: ["schedbench"]),
        // The measuring executable of the built-ins and the peers, which the tool drives.
        .executable(name: "schedbench-builtins", targets: ["schedbench-builtins"]),
        // `swift package schedbench …` in a package with a SchedulerBench executable.
        .plugin(name: "SchedBenchPlugin", targets: ["SchedBenchPlugin"]),
    ],
    traits: [
        // Stress points in the core, for `schedbench stress` (`swift build --traits StressHooks`).
        // Off by default: without it they compile to nothing. The seeded bugs are not in the
        // sources: scripts/seeded-bugs.py makes a copy of the tree that has them.
        .trait(
            name: "StressHooks",
            description: "Compile the core's stress points (perturbation for schedbench stress)."
        ),
        // A slower build on demand, for measuring the gate's error rates on real runs
        // (scripts/validate-gate.py): SCHEDBENCH_SLOWDOWN=CASE-PREFIX:PERCENT slows the
        // named cases. Off by default: without it the hooks compile to nothing.
        .trait(
            name: "ValidationSlowdown",
            description: "Let SCHEDBENCH_SLOWDOWN=CASE-PREFIX:PERCENT make cases slower per event (for validating gate and compare --history on real runs)."
        ),
        // A history shared by a fleet in PostgreSQL (`--db postgres://…`), through postgres-nio
        // (`swift build -c release --product schedbench --traits PostgreSQL`). Off by default:
        // it adds postgres-nio, with SwiftNIO and BoringSSL, to the tool's build, several
        // minutes to a first build; the SQLite history needs none of it.
        .trait(
            name: "PostgreSQL",
            description: "Store histories in PostgreSQL too (schedbench history … --db postgres://…), through postgres-nio."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The peer frameworks the harness compares the core with (strategies `openCombine`, `asyncChannel`).
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        // The SwiftNIO peer (SchedulerBenchPeers): an EventLoop as a scheduler and a hand-off.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `swift package generate-documentation` for the DocC catalogs; not linked into anything.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // The core knows nothing of the harness and links no allocator.
        .target(name: "RxSchedulers", dependencies: ["CDispatchMain", "COpaquePublish", "CSpinHint", "CTrampolineCache"], swiftSettings: languageMode),
        // The main-queue check behind MainScheduler's inline path (libdispatch's current queue).
        .target(name: "CDispatchMain"),
        // A release store behind a call the optimizer cannot see into, so a value's retain
        // stays above the store that hands its slot to the consumer (the queues' publish).
        .target(name: "COpaquePublish"),
        // The processor's spin-wait hint, for the drains' wait before they give up.
        .target(name: "CSpinHint"),
        // A C thread-local caching each thread's trampoline (CurrentThreadScheduler).
        .target(name: "CTrampolineCache"),
        .target(name: "RxSchedulersTesting", dependencies: ["RxSchedulers"], swiftSettings: languageMode),
        // RxCocoa's scheduler-bound traits without the UI: SharedSequence, Driver, Signal.
        // A module of its own, so the core stays the core (`import RxCocoa` becomes this).
        .target(name: "RxSchedulersCocoa", dependencies: ["RxSchedulers", "RxSchedulersRelay"], swiftSettings: languageMode),
        // RxRelay: subjects that cannot fail or complete (`import RxRelay` becomes this).
        .target(name: "RxSchedulersRelay", dependencies: ["RxSchedulers"], swiftSettings: languageMode),
        // RxBlocking: operators that wait for a sequence's end, for tests and tools
        // (`import RxBlocking` becomes this).
        .target(name: "RxSchedulersBlocking", dependencies: ["RxSchedulers"], swiftSettings: languageMode),
        // Not a product: the publish-order check's subject (scripts/check-publish-order.py
        // runs it under gdb), built in release without traits, as users ship the core.
        .executableTarget(name: "PublishOrderProbe", dependencies: ["RxSchedulers"], swiftSettings: languageMode),
        // Not a product: runs one of the core's hot paths for the instruction-count gate
        // (scripts/instruction-gate.py runs it under callgrind). LLVM's function merging is
        // off in this module only: the cases share identical closures, and merging turned
        // all but one copy into a call to the survivor, so a case's count depended on which
        // other cases the binary held (chain.create +12 instructions per element). Without
        // it each case counts what a program holding only that case pays; the core's own
        // modules are built as users build them.
        .executableTarget(
            name: "HotPathInstructions", dependencies: ["RxSchedulers", "CCallgrind"],
            swiftSettings: languageMode + [.unsafeFlags(["-Xfrontend", "-disable-llvm-merge-functions-pass"])]),

        // jemalloc (Debian's libjemalloc-dev), for the allocator target below.
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        // Callgrind client requests (valgrind's header, package `valgrind`) for the
        // instruction-count mode; no-ops when not under valgrind or without the header.
        .target(name: "CCallgrind"),
        // prctl's parent-death signal, pipes and spawning for child processes (prctl is
        // variadic, posix_spawn's close-range action is GNU's: not callable from Swift).
        .target(name: "CProcess"),

        // Shared by the runtime and the tool.
        //
        // Plain values: names, cases, results, provenance, events, options, the registry's
        // description, violations.
        .target(
            name: "BenchModel",
            dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")],
            swiftSettings: engineMode
        ),
        // The child protocol between the tool and a measuring executable: its messages,
        // starting a child and reading its answer, and where a process runs (provenance).
        .target(
            name: "BenchChild",
            dependencies: ["BenchModel", "CProcess"],
            swiftSettings: engineMode
        ),

        // The runtime: what a team's package links for its own scheduler (SchedulerBench
        // product) — the registry and its public API, the workloads and their runner, the
        // collectors and checkers, planning, the stress scenarios, and the child service that
        // answers the tool. No argument parser, SQL, statistics, report or peer framework.
        .target(
            name: "SchedulerBench",
            dependencies: [
                "BenchModel",
                "BenchChild",
                "RxSchedulers",
                // Driver, for the pipelines written as apps write them.
                "RxSchedulersCocoa",
                "CSpinHint",
                "CCallgrind",
                "CProcess",
            ],
            swiftSettings: engineMode
        ),
        // Links jemalloc into a SchedulerBench executable and hands `mallctl` to the runtime
        // before `main` (allocation counts). Part of the SchedulerBench product; the runtime's
        // tests link the runtime alone (ThreadSanitizer's allocator and jemalloc cannot share
        // a process).
        .target(
            name: "SchedulerBenchAllocator",
            dependencies: ["CJemalloc"],
            linkerSettings: [.linkedLibrary("jemalloc")]
        ),
        // The peers, registered through the public API as any package's entries are: a
        // SwiftNIO EventLoop (scheduler and hand-off), a custom-executor actor, OpenCombine's
        // receive(on:) and swift-async-algorithms' AsyncChannel (hand-offs).
        .target(
            name: "SchedulerBenchPeers",
            dependencies: [
                "SchedulerBench",
                "RxSchedulers",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: engineMode
        ),
        // `schedbench-builtins`: the measuring executable of the built-ins and the peers,
        // which the tool drives by default.
        .executableTarget(
            name: "schedbench-builtins",
            dependencies: ["SchedulerBench", "SchedulerBenchAllocator", "SchedulerBenchPeers"],
            path: "Sources/schedbench-builtins",
            swiftSettings: engineMode
        ),

        // The tool, in layers; it links no part of the core, and drives a measuring
        // executable (the built-ins or a user's) through the child protocol.
        //
        // Analysis: statistics, comparison and the gate's rounds, the history, the report,
        // exports, and the files a run writes (results, summary, violations, latency, stress).
        .target(
            name: "BenchAnalysis",
            dependencies: [
                "BenchModel",
                "BenchChild",
                .product(name: "CSV", package: "CSV.swift"),
                // The history: SQLite through GRDB always, PostgreSQL with the trait.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["PostgreSQL"])),
            ],
            swiftSettings: engineMode
        ),
        // The tool's workflows over the layers (run, compare, gate, stress, history), each
        // driving a measuring executable through the child protocol: what the CLI calls. It
        // never prints; it reports through `BenchObserver`.
        .target(
            name: "BenchWorkflows",
            dependencies: ["BenchModel", "BenchChild", "BenchAnalysis"],
            swiftSettings: engineMode
        ),
        // The command line: one file per subcommand, rendering, exit statuses.
        .target(
            name: "SchedBenchCLI",
            dependencies: [
                "BenchModel",
                "BenchChild",
                "BenchAnalysis",
                "BenchWorkflows",
                "CProcess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: engineMode
        ),
        // `schedbench`: the tool.
        .executableTarget(
            name: "schedbench",
            dependencies: ["SchedBenchCLI"],
            swiftSettings: engineMode
        ),

        // The command plugin: builds the package's SchedulerBench executable and the tool in
        // release and runs the tool on it.
        .plugin(
            name: "SchedBenchPlugin",
            capability: .command(
                intent: .custom(verb: "schedbench", description: "Build this package's SchedulerBench executable and the schedbench tool in release, and run the tool on it."),
                permissions: [.writeToPackageDirectory(reason: "schedbench writes its results (results/…) in the package's directory")]
            )
        ),

        .testTarget(
            name: "RxSchedulersCocoaTests",
            dependencies: ["RxSchedulersCocoa", "RxSchedulersRelay", "RxSchedulers", "RxSchedulersTesting"],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "RxSchedulersRelayTests",
            dependencies: ["RxSchedulersRelay", "RxSchedulers", "RxSchedulersTesting"],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "RxSchedulersBlockingTests",
            dependencies: ["RxSchedulersBlocking", "RxSchedulers"],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "RxSchedulersTests",
            dependencies: ["RxSchedulers", "RxSchedulersTesting"],
            swiftSettings: languageMode
        ),
        // What several test targets share: where the repository's files are, whether
        // ThreadSanitizer is on.
        .target(name: "BenchTestSupport", path: "Tests/BenchTestSupport", swiftSettings: languageMode),
        .testTarget(
            name: "BenchModelTests",
            dependencies: ["BenchTestSupport", "BenchModel"],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "BenchChildTests",
            dependencies: ["BenchTestSupport", "BenchChild", "BenchModel"],
            swiftSettings: languageMode
        ),
        .testTarget(
            // The runtime, without jemalloc (ThreadSanitizer runs these).
            name: "SchedulerBenchTests",
            dependencies: ["BenchTestSupport", "SchedulerBench", "BenchModel", "BenchChild", "RxSchedulers"],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "SchedulerBenchPeersTests",
            dependencies: ["BenchTestSupport", "SchedulerBenchPeers", "SchedulerBench", "BenchModel", "RxSchedulers"],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "BenchAnalysisTests",
            // GRDB: the history tests open its files directly, as a foreign writer would.
            dependencies: ["BenchTestSupport", "BenchAnalysis", "BenchModel", "BenchChild", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "BenchWorkflowsTests",
            dependencies: ["BenchTestSupport", "BenchWorkflows", "BenchAnalysis", "BenchModel", "BenchChild"],
            swiftSettings: languageMode
        ),
        .testTarget(
            name: "SchedBenchCLITests",
            // Also runs the built `schedbench` and `schedbench-builtins` as users do (`swift build` builds them).
            dependencies: ["BenchTestSupport", "SchedBenchCLI", "BenchWorkflows", "BenchAnalysis", "BenchModel", "BenchChild"],
            swiftSettings: languageMode
        ),
    ]
)

// `SCHEDBENCH_CORE_ONLY=1` declares the core alone: its modules and products, their tests and
// the core's two probes, with no dependency and none of the harness. scripts/test.sh's
// release pass runs the core's tests this way (what users ship, without building the tool in
// release too). A module added to the core is added here, or that pass fails to build.
if Context.environment["SCHEDBENCH_CORE_ONLY"] == "1" {
    let core: Set<String> = [
        "RxSchedulers", "CDispatchMain", "COpaquePublish", "CSpinHint", "CTrampolineCache", "RxSchedulersTesting",
        "RxSchedulersCocoa", "RxSchedulersRelay", "RxSchedulersBlocking", "PublishOrderProbe", "HotPathInstructions",
        "CCallgrind", "RxSchedulersTests", "RxSchedulersCocoaTests", "RxSchedulersRelayTests", "RxSchedulersBlockingTests",
    ]
    package.targets.removeAll { !core.contains($0.name) }
    package.products.removeAll { !core.contains($0.name) }
    package.dependencies = []
}
