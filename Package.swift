// swift-tools-version:6.1
import PackageDescription

// The core is written in the Swift 5 language mode: like RxSwift, its types are
// shared across threads under the core's own locks and atomics, which strict
// Sendable checking cannot express without wrapping every closure.
let languageMode: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "SchedulerBench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxSchedulers", targets: ["RxSchedulers"]),
        .library(name: "RxSchedulersTesting", targets: ["RxSchedulersTesting"]),
    ],
    targets: [
        .target(name: "RxSchedulers", swiftSettings: languageMode),
        .target(name: "RxSchedulersTesting", dependencies: ["RxSchedulers"], swiftSettings: languageMode),
        .testTarget(
            name: "RxSchedulersTests",
            dependencies: ["RxSchedulers", "RxSchedulersTesting"],
            swiftSettings: languageMode
        ),
    ]
)
