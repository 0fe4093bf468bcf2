import Foundation

/// Where the package's files are, for tests that read the repository's own files (the
/// shipped thresholds, the documentation, fixtures made by earlier builds).
public enum Repository {
    /// The package's root: the nearest folder above this file that holds Package.swift.
    public static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// A file of the package, by its path from the root.
    public static func file(_ path: String) -> URL { root.appendingPathComponent(path) }
}
