import BenchModel
import Foundation

/// How every output file is written: atomically (readers see the old file or the new one,
/// never half of one), with a failure said in words (`FileProblem`) as
/// `BenchError.unwritable`.
package enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw BenchError.unwritable(path: url.path, problem: FileProblem.describe(error, at: url))
        }
    }

    package static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }
}
