import Foundation

/// Says in words why a file operation failed: "is a file, not a directory", "no such file",
/// "permission denied", "no space left on device" — never a bare Foundation error code.
package enum FileProblem {
    package static func describe(_ error: any Error, at url: URL) -> String {
        if let type = try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType {
            if type == .typeDirectory { return "\(url.path) is a directory, not a file" }
            if type != .typeRegular && type != .typeSymbolicLink { return "\(url.path) is not a regular file" }
        }
        // A path through a file, or into a directory that is not there, fails with a
        // generic code: find the file in the way, or name the missing directory.
        let parent = url.deletingLastPathComponent()
        var ancestor = parent
        while ancestor.path != "/" && !ancestor.path.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue { return "\(ancestor.path) is a file, not a directory" }
                if ancestor.path != parent.path { return "no such directory: \(parent.path)" }
                break
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))).lowercased() }
        switch nsError.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on device"
        case NSFileWriteVolumeReadOnlyError: return "read-only file system"
        default: return nsError.localizedDescription
        }
    }
}
