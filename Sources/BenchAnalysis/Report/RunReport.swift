import BenchChild
import BenchModel
import Foundation

/// `schedbench report`: one self-contained HTML file — inline CSS and SVG, no fetched
/// script, style or font, readable without JavaScript (a few lines of inline script sort the
/// summary table), printable. Sections: overview (provenance, verdict, summary table),
/// scaling, latency, periodic, resources, and with a BASE the comparison. The Reports
/// article in the documentation says how to read each chart.
package enum RunReport {
    package struct Options: Sendable {
        package var title: String
        /// Thresholds for the comparison section.
        package var thresholds: Thresholds
        /// The p99 latency the latency-vs-rate chart marks rates against, in nanoseconds.
        package var p99Limit: Double

        package init(title: String = "schedbench report", thresholds: Thresholds = Thresholds(), p99Limit: Double = 1_000_000) {
            self.title = title
            self.thresholds = thresholds
            self.p99Limit = p99Limit
        }
    }

    package static let fileName = "index.html"

    /// The page for `run` (and its comparison with `base`).
    package static func render(run: ReportInput, base: ReportInput? = nil, options: Options = Options()) -> String {
        var page = ReportPage(title: options.title)
        page.section("Overview", ReportSections.overview(run, base: base))
        if let base {
            page.section("Comparison", ReportSections.comparison(run, base: base, thresholds: options.thresholds))
        }
        page.section("Scaling", ReportSections.scaling(run))
        page.section("Latency", ReportSections.latency(run, p99Limit: options.p99Limit))
        page.section("Periodic", ReportSections.periodic(run))
        page.section("Resources", ReportSections.resources(run))
        page.section("Summary", ReportSections.summaryTable(run))
        return page.render()
    }

    /// Writes `index.html` into `directory` (created if needed), atomically; returns its URL.
    @discardableResult
    package static func write(run: ReportInput, base: ReportInput? = nil, to directory: URL, options: Options = Options()) throws -> URL {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw BenchError.unwritable(path: directory.path, problem: FileProblem.describe(error, at: directory.appendingPathComponent(fileName)))
        }
        let file = directory.appendingPathComponent(fileName)
        try AtomicFile.write(render(run: run, base: base, options: options), to: file)
        return file
    }
}
