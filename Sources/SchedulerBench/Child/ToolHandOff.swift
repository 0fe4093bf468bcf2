import BenchChild
import BenchModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a SchedulerBench executable does with a command line that is not `_child`: it
/// replaces itself with the `schedbench` tool (`execv`), telling the tool to measure with
/// this executable (`SCHEDBENCH_TARGET`) and to name itself after it in messages
/// (`SCHEDBENCH_COMMAND`). The tool is the one `SCHEDBENCH_TOOL` names, else `schedbench`
/// beside this executable, else `schedbench` on `PATH`. When there is none and this
/// executable lies in a SwiftPM build directory of a package (`.build/release/MyBench`, as
/// `swift build` leaves it), the tool is built there first, in the same configuration, with
/// a line on standard error saying so: a later start finds it beside the executable.
enum ToolHandOff {
    static func run(_ arguments: [String]) -> Never {
        let executable = ChildProcess.currentExecutable
        let name = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        guard let tool = locate(besides: executable) ?? build(besides: executable, for: name) else {
            FileHandle.standardError.write(
                Data(
                    """
                    error: \(name) measures for the schedbench tool, which is not built: run it through the plugin \
                    (swift package --allow-writing-to-package-directory schedbench \(arguments.joined(separator: " "))), or build the \
                    tool beside it (swift build -c release --product schedbench), or name it in \(ToolLocation.toolVariable)

                    """.utf8))
            exit(1)
        }
        setenv(ToolLocation.targetVariable, executable, 1)
        setenv(ToolLocation.commandVariable, name, 1)
        var argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        execv(tool, &argv)
        FileHandle.standardError.write(Data("error: cannot start the schedbench tool at \(tool): \(String(cString: strerror(errno)))\n".utf8))
        exit(1)
    }

    /// The tool: `SCHEDBENCH_TOOL`, `schedbench` in `executable`'s directory, or on `PATH`.
    static func locate(besides executable: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let named = environment[ToolLocation.toolVariable], !named.isEmpty { return named }
        let sibling = sibling(of: executable)
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return ExecutableSearch.onPath(ToolLocation.toolName)
    }

    private static func sibling(of executable: String) -> String {
        URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(ToolLocation.toolName).path
    }

    /// Where a SwiftPM build put `executable`: the package, the scratch directory and the
    /// configuration (`PACKAGE/.build/[TRIPLE/]release/NAME`); nil elsewhere.
    static func buildLocation(of executable: String) -> (package: URL, scratch: URL, configuration: String)? {
        let directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let configuration = directory.lastPathComponent
        guard configuration == "release" || configuration == "debug" else { return nil }
        // `.build/release` links to `.build/x86_64-unknown-linux-gnu/release`; a scratch
        // directory is where SwiftPM keeps its workspace state.
        let scratch = [directory.deletingLastPathComponent(), directory.deletingLastPathComponent().deletingLastPathComponent()].first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("workspace-state.json").path)
        }
        guard let scratch else { return nil }
        var package = scratch.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path) {
            guard package.path != "/" else { return nil }
            package.deleteLastPathComponent()
        }
        return (package, scratch, configuration)
    }

    /// Builds the tool beside `executable` with `swift build` when the executable lies in a
    /// package's build directory and `swift` is on `PATH`; returns it, or nil.
    private static func build(besides executable: String, for name: String) -> String? {
        guard let location = buildLocation(of: executable), let swift = ExecutableSearch.onPath("swift") else { return nil }
        FileHandle.standardError.write(
            Data(
                "\(name): building the schedbench tool it hands its command line to (swift build -c \(location.configuration) --product schedbench, once; a first build takes minutes)\n"
                    .utf8))
        let build = Process()
        build.executableURL = URL(fileURLWithPath: swift)
        build.arguments = [
            "build", "-c", location.configuration, "--product", ToolLocation.toolName, "--package-path", location.package.path,
            "--scratch-path", location.scratch.path,
        ]
        // The build's output goes to standard error: standard output is the command's.
        build.standardOutput = FileHandle.standardError
        guard (try? build.run()) != nil else { return nil }
        build.waitUntilExit()
        guard build.terminationReason == .exit, build.terminationStatus == 0 else { return nil }
        let built = sibling(of: URL(fileURLWithPath: executable).resolvingSymlinksInPath().path)
        return FileManager.default.isExecutableFile(atPath: built) ? built : nil
    }
}
