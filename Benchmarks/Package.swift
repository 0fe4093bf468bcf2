// swift-tools-version:6.1
import Foundation
import PackageDescription

// Micro benchmarks of the core's primitives with ordo-one/benchmark (package-benchmark).
// A separate package so that `swift test` in the root never builds the benchmark
// framework. Run from this folder:
//   swift package --allow-writing-to-package-directory benchmark

// A path dependency is identified by its folder's name, whatever the clone is called.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "SchedulerBenchBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RxSchedulers", package: rootFolder),
                .product(name: "RxSchedulersCocoa", package: rootFolder),
            ],
            path: "Benchmarks/CoreBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
