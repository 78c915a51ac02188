/// The choices of the shared grammars (`PredicateGrammar.swift`, `FormatGrammar.swift`, symlinked from the runtime
/// tests, where a seeded generator of the same name drives them): here either the fuzzer's bytes, one or two per
/// choice (0 once they run out, so every input ends in a finite tree), or SplitMix64 from a seed (the data).
struct SeededGenerator: RandomNumberGenerator {
    private var bytes: [UInt8]
    private var position = 0
    private var state: UInt64
    private let fromBytes: Bool

    init(seed: UInt64) {
        bytes = []
        state = seed
        fromBytes = false
    }

    init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
        state = 0
        fromBytes = true
    }

    /// Whether a byte-driven generator has used all its bytes.
    var isExhausted: Bool { fromBytes && position >= bytes.count }

    private mutating func byte() -> UInt64 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return UInt64(bytes[position])
    }

    mutating func next() -> UInt64 {
        if fromBytes { return (0..<8).reduce(0) { value, _ in value << 8 | byte() } }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        guard fromBytes else { return Int(next() % UInt64(bound)) }
        let value = bound <= 256 ? byte() : byte() << 8 | byte()
        return Int(value % UInt64(bound))
    }

    mutating func pick<T>(_ values: [T]) -> T { values[int(values.count)] }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
}
