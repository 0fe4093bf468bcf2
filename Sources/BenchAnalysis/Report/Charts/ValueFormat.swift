import BenchChild
import BenchModel
import Foundation

/// How a chart writes a value: by its unit, short enough for a tick label.
enum ValueFormat {
    /// Nanoseconds, written as ns, µs, ms or s.
    case nanoseconds
    /// Microseconds (HdrHistogram's files), written as ns, µs, ms or s.
    case microseconds
    /// Counts and rates: 950, 12.5k, 3.4M, 1.2G.
    case count
    /// Counts of whole things (threads): as `count`, on an axis with whole-number ticks.
    case wholeCount
    /// Bytes: B, KiB, MiB, GiB.
    case bytes
    /// A ratio NEW/BASE as a signed change: +12.0%, −3.5%.
    case change
    /// A percentile: 50, 99.9, 99.999 (with a %).
    case percentile

    func string(_ value: Double) -> String {
        switch self {
        case .nanoseconds: return Self.duration(value)
        case .microseconds: return Self.duration(value * 1_000)
        case .count, .wholeCount: return Self.scaled(value, [(1e9, "G"), (1e6, "M"), (1e3, "k")])
        case .bytes:
            return Self.scaled(value, [(1_073_741_824, " GiB"), (1_048_576, " MiB"), (1_024, " KiB")], plain: " B")
        case .change: return String(format: "%+.1f%%", (value - 1) * 100).replacingOccurrences(of: "-", with: "−")
        case .percentile:
            let text = String(format: "%.3f", value).replacingOccurrences(of: "\\.?0+$", with: "", options: .regularExpression)
            return text + "%"
        }
    }

    private static func duration(_ nanoseconds: Double) -> String {
        let magnitude = abs(nanoseconds)
        if magnitude >= 1e9 { return trimmed(nanoseconds / 1e9) + " s" }
        if magnitude >= 1e6 { return trimmed(nanoseconds / 1e6) + " ms" }
        if magnitude >= 1e3 { return trimmed(nanoseconds / 1e3) + " µs" }
        return trimmed(nanoseconds) + " ns"
    }

    private static func scaled(_ value: Double, _ units: [(Double, String)], plain: String = "") -> String {
        for (size, suffix) in units where abs(value) >= size { return trimmed(value / size) + suffix }
        return trimmed(value) + plain
    }

    /// Three significant digits at most, no trailing zeros: 1, 2.5, 12.5, 125, 0.0125.
    private static func trimmed(_ value: Double) -> String {
        if value == 0 { return "0" }
        let digits = max(0, 2 - Int(floor(log10(abs(value)))))
        let text = String(format: "%.\(min(digits, 6))f", value)
        return text.contains(".") ? text.replacingOccurrences(of: "\\.?0+$", with: "", options: .regularExpression) : text
    }
}
