/// Any key of a JSON object, so that a file format's decoder can name a key it does not
/// have (the thresholds and noise floor files refuse unknown keys rather than skip them).
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// The first of the object's keys, in sorted order, that `valid` does not hold.
    static func firstUnknown(in decoder: any Decoder, valid: [String]) throws -> String? {
        try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue).sorted().first { !valid.contains($0) }
    }
}
