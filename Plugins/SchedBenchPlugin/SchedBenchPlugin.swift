import Foundation
import PackagePlugin

/// `swift package schedbench <subcommand> …`: builds the package's SchedulerBench executable
/// and the `schedbench` tool in release, and runs the tool with the arguments given, from
/// the package's directory, measuring with that executable (`SCHEDBENCH_TARGET`).
///
/// The executable is the package's one executable product whose modules depend on the
/// `SchedulerBench` library (`--product NAME` picks one when there are several).
/// `--debug` builds it in debug instead (faster to build; never for figures you keep); the
/// tool is always built in release. Each build says what it builds before it starts: a
/// first build compiles the core and the runtime (the executable) and the tool's own
/// dependencies, several minutes on two cores.
@main
struct SchedBenchPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let asked = extractor.extractOption(named: "product")
        let debug = extractor.extractFlag(named: "debug") > 0
        let passed = extractor.remainingArguments.first == "--" ? Array(extractor.remainingArguments.dropFirst()) : extractor.remainingArguments

        let candidates = context.package.products(ofType: ExecutableProduct.self).filter { Self.usesSchedulerBench($0) }
        let product: ExecutableProduct
        if let name = asked.last {
            guard let named = candidates.first(where: { $0.name == name }) else {
                throw PluginFailure("no executable product '\(name)' that uses SchedulerBench; found: \(Self.names(candidates))")
            }
            product = named
        } else if candidates.count == 1 {
            product = candidates[0]
        } else if candidates.isEmpty {
            throw PluginFailure(
                "this package has no executable product that depends on the SchedulerBench library; add one whose @main type conforms to SchedulerBenchCommand")
        } else {
            throw PluginFailure("several executables use SchedulerBench (\(Self.names(candidates))); pick one with --product NAME")
        }

        let configuration: PackageManager.BuildConfiguration = debug ? .debug : .release
        let executable = try build(product.name, configuration, what: "\(product.name), the package's measuring executable")
        let tool = try build("schedbench", .release, what: "schedbench, the tool that drives it")

        let process = Process()
        process.executableURL = tool
        process.arguments = passed
        process.currentDirectoryURL = context.package.directoryURL
        var environment = ProcessInfo.processInfo.environment
        environment["SCHEDBENCH_TARGET"] = executable.path
        // What its messages and replay lines call it: the command that runs it again.
        environment["SCHEDBENCH_COMMAND"] = "swift package --allow-writing-to-package-directory schedbench"
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        // The executable's exit status is the command's (0 ok, 1 error, 2 regressed, 3 violation, 64 usage, 130 interrupted).
        if process.terminationReason == .exit && process.terminationStatus == 0 { return }
        exit(process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus)
    }

    /// Builds `product`, saying so first (the build itself is silent until it ends), and
    /// returns its executable.
    private func build(_ product: String, _ configuration: PackageManager.BuildConfiguration, what: String) throws -> URL {
        let mode = configuration == .debug ? "debug" : "release"
        FileHandle.standardError.write(
            Data("schedbench: building \(what) (\(mode)); a first build takes several minutes, later ones seconds\n".utf8))
        let build = try packageManager.build(.product(product), parameters: .init(configuration: configuration, logging: .concise))
        guard build.succeeded else {
            throw PluginFailure("the build of \(product) failed:\n\(build.logText)")
        }
        guard let executable = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == product }) else {
            throw PluginFailure("the build of \(product) produced no executable")
        }
        return executable.url
    }

    /// Whether one of the product's modules depends on the SchedulerBench library.
    private static func usesSchedulerBench(_ product: ExecutableProduct) -> Bool {
        let modules = [product.mainTarget] + product.mainTarget.recursiveTargetDependencies
        return modules.contains { module in
            module.dependencies.contains { dependency in
                if case .product(let library) = dependency { return library.name == "SchedulerBench" }
                return false
            }
        }
    }

    private static func names(_ products: [ExecutableProduct]) -> String {
        products.map(\.name).joined(separator: ", ")
    }
}

/// A failure the plugin reports as its error.
struct PluginFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
