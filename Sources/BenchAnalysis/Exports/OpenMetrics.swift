import BenchChild
import BenchModel
/// OpenMetrics text exposition: a gauge family per metric (`schedbench_<metric>`), one sample
/// per case with the case columns as labels and the run's `run_id` and `commit`; an info
/// sample `schedbench_export_info` carries the export schema and the testbed. Ends with
/// `# EOF`. For a Prometheus Pushgateway or any scraper that reads the text format.
enum OpenMetrics {
    static func render(_ entries: [Export.Entry], provenance: Provenance?) -> String {
        var lines: [String] = []
        var run: [(String, String)] = []
        if let provenance { run = [("run_id", provenance.runID), ("commit", provenance.commit)] }
        lines.append("# TYPE schedbench_export info")
        lines.append("# HELP schedbench_export The export's schema and the run's testbed.")
        let testbed = provenance?.testbed.map { ($0.column, $0.value) } ?? []
        lines.append("schedbench_export_info" + labels([("schema", String(Export.schemaVersion))] + run + testbed) + " 1")
        var metricsInOrder: [Metric] = []
        for entry in entries where !metricsInOrder.contains(entry.metric) { metricsInOrder.append(entry.metric) }
        for metric in metricsInOrder {
            let family = "schedbench_\(metric.rawValue)"
            lines.append("# TYPE \(family) gauge")
            lines.append("# HELP \(family) Median over the trials, in \(metric.unit).")
            for entry in entries where entry.metric == metric {
                let c = entry.benchCase
                let caseLabels = [
                    ("workload", c.workload.rawValue), ("scheduler", c.scheduler.rawValue), ("strategy", c.strategy.rawValue),
                    ("producers", String(c.producers)), ("events", String(c.events)), ("payload_bytes", String(c.payloadBytes)),
                    ("rate_hz", String(c.rateHz)),
                ]
                lines.append(family + labels(caseLabels + run) + " " + ResultsFiles.format(entry.median))
            }
        }
        lines.append("# EOF")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{name="value",…}` with `\`, `"` and newlines escaped as the format requires.
    static func labels(_ pairs: [(String, String)]) -> String {
        let escaped = pairs.map { name, value in
            let text = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "\(name)=\"\(text)\""
        }
        return "{" + escaped.joined(separator: ",") + "}"
    }
}
