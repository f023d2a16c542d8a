/// A seeded random number generator (SplitMix64): the same seed gives the same run.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A random element.
    mutating func pick<C: Collection>(_ collection: C) -> C.Element { collection.randomElement(using: &self)! }

    /// A random 62-bit value, for the version column: never the same twice in practice.
    mutating func version() -> Int64 { Int64(bitPattern: next() >> 2) }

    /// `name` with letters in random case: `tAbLe`.
    mutating func randomCase(_ name: String) -> String {
        String(name.map { chance(0.5) ? Character($0.uppercased()) : Character($0.lowercased()) })
    }
}
