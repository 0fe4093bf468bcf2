import BenchModel
/// The stress mode's source of every random decision: SplitMix64, a small generator whose
/// whole state is one word, so a decision stream is named by its seed and replays exactly.
///
/// A run's seed names a stream per scenario, iteration and thread (`init(seed:scenario:
/// iteration:stream:)`): the same seed and iteration count make the same decisions on every
/// scenario thread, whatever the others did.
package struct StressRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    /// The stream of one thread (`stream`) in one iteration of one scenario.
    package init(seed: UInt64, scenario: StressScenarioName, iteration: Int, stream: Int) {
        var mixer = StressRandom(seed: seed)
        for byte in scenario.rawValue.utf8 {
            mixer.state ^= UInt64(byte) &* 0x100_0000_01B3
            _ = mixer.next()
        }
        mixer.state ^= UInt64(truncatingIfNeeded: iteration) &* 0x9E37_79B9_7F4A_7C15
        _ = mixer.next()
        mixer.state ^= UInt64(truncatingIfNeeded: stream) &* 0xC2B2_AE3D_27D4_EB4F
        state = mixer.next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1p-53 < probability
    }

    /// One of `choices`, uniformly.
    package mutating func pick<Choice>(_ choices: [Choice]) -> Choice {
        choices[Int(next() % UInt64(choices.count))]
    }
}
