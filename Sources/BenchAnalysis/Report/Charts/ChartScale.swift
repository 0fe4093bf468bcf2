import BenchChild
import BenchModel
import Foundation

/// Maps values on an axis to pixels, and chooses the axis's ticks.
///
/// - `linear`: ticks at 1, 2 or 5 × 10ⁿ steps, about five of them (`Step`: at least 1 for
///   whole things such as threads; in KiB, MiB or GiB for bytes, so the labels are round);
/// - `logarithmic`: base 10, ticks at powers of ten (and 2× and 5× within a span of under
///   three decades); for spans over 50× or so, where a linear axis flattens the small values;
/// - `percentile`: HdrHistogram's axis for latency distributions, x = −log₁₀(1 − p/100), so
///   50, 90, 99, 99.9, 99.99 and 99.999 are evenly spaced and the tail gets the room.
struct ChartScale {
    enum Kind: Equatable {
        case linear, logarithmic, percentile
    }

    /// What a linear axis's tick step is made of.
    enum Step: Equatable {
        /// 1, 2 or 5 × 10ⁿ.
        case decimal
        /// As `decimal`, never below 1: whole things (threads) have no half ticks.
        case whole
        /// 1, 2 or 5 × 10ⁿ of the binary unit (B, KiB, MiB, GiB) the values are written in.
        case binary
    }

    let kind: Kind
    let step: Step
    let low: Double
    let high: Double
    /// The pixels `low` and `high` map to (`from` > `to` for a y axis, which grows upward).
    let from: Double
    let to: Double

    init(kind: Kind, low: Double, high: Double, from: Double, to: Double, step: Step = .decimal) {
        self.kind = kind
        self.step = step
        self.from = from
        self.to = to
        switch kind {
        case .linear:
            let (l, h) = low == high ? (low - 1, high + 1) : (low, high)
            self.low = l
            self.high = h
        case .logarithmic:
            let l = max(low, Double.leastNormalMagnitude)
            let h = max(high, l)
            // Whole decades around the data, so the ends carry ticks.
            self.low = pow(10, floor(log10(l)))
            self.high = pow(10, max(ceil(log10(h)), floor(log10(l)) + 1))
        case .percentile:
            self.low = 0
            self.high = min(max(high, 99), 99.9999)
        }
    }

    /// A scale for `values` that starts at zero (linear) or spans their decades (log), log
    /// when every value is positive and the largest is more than `logBeyond` times the smallest.
    /// With `binary` (bytes) a linear axis ends and steps at round numbers of KiB, MiB or GiB.
    static func fitting(
        _ values: [Double], from: Double, to: Double, logBeyond: Double = 50, includeZero: Bool = true, binary: Bool = false
    ) -> ChartScale {
        let finite = values.filter(\.isFinite)
        let low = finite.min() ?? 0
        let high = finite.max() ?? 1
        if low > 0, high / low > logBeyond {
            return ChartScale(kind: .logarithmic, low: low, high: high, from: from, to: to)
        }
        let unit = binary ? binaryUnit(high) : 1
        let niceHigh = niceCeiling(high * 1.05 / unit) * unit
        return ChartScale(
            kind: .linear, low: includeZero ? min(0, low) : low, high: niceHigh == 0 ? 1 : niceHigh, from: from, to: to,
            step: binary ? .binary : .decimal)
    }

    /// The binary unit (1, 1 KiB, 1 MiB, 1 GiB) that `value` is written in.
    static func binaryUnit(_ value: Double) -> Double {
        var unit = 1.0
        while unit < 1_073_741_824 && abs(value) >= unit * 1_024 { unit *= 1_024 }
        return unit
    }

    private func transform(_ value: Double) -> Double {
        switch kind {
        case .linear: return value
        case .logarithmic: return log10(max(value, low))
        case .percentile: return -log10(max(1 - min(value, high) / 100, 1e-9))
        }
    }

    /// The pixel of `value` (clamped to the axis).
    func position(_ value: Double) -> Double {
        let span = transform(high) - transform(low)
        let fraction = span == 0 ? 0 : (transform(min(max(value, low), high)) - transform(low)) / span
        return from + fraction * (to - from)
    }

    /// Where the axis carries labelled ticks.
    var ticks: [Double] {
        switch kind {
        case .linear:
            let step: Double
            switch self.step {
            case .decimal: step = Self.niceStep((high - low) / 5)
            case .whole: step = max(1, Self.niceStep((high - low) / 5))
            case .binary:
                let unit = Self.binaryUnit(Swift.max(abs(low), abs(high)))
                step = Self.niceStep((high - low) / 5 / unit) * unit
            }
            var values: [Double] = []
            var value = (low / step).rounded(.up) * step
            while value <= high + step * 1e-9 {
                values.append(abs(value) < step * 1e-9 ? 0 : value)
                value += step
            }
            return values
        case .logarithmic:
            let decades = Int((log10(high) - log10(low)).rounded())
            var values: [Double] = []
            for exponent in 0...decades {
                let power = low * pow(10, Double(exponent))
                values.append(power)
                if decades < 3 && exponent < decades { values += [2 * power, 5 * power] }
            }
            return values
        case .percentile:
            return [50, 90, 99, 99.9, 99.99, 99.999].filter { $0 <= high + 1e-9 }
        }
    }

    /// 1, 2 or 5 × 10ⁿ, the smallest at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        let power = pow(10, floor(log10(rough)))
        for multiple in [1.0, 2, 5, 10] where multiple * power >= rough * (1 - 1e-9) { return multiple * power }
        return 10 * power
    }

    /// The smallest 1, 2, 2.5 or 5 × 10ⁿ at least `value` (an axis end).
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 0 }
        let power = pow(10, floor(log10(value)))
        for multiple in [1.0, 2, 2.5, 5, 10] where multiple * power >= value * (1 - 1e-9) { return multiple * power }
        return 10 * power
    }
}
