import SQLiteStoreSeededRandom

/// Produces the benchmark's rows from a seed: the same seed gives the same items everywhere.
public struct ItemGenerator: Sendable {
    /// The seed of every fixture, so that all contenders see the same data.
    public static let fixtureSeed: UInt64 = 0x5EED_0008

    /// Scores are uniform in `0..<scoreRange`.
    public static let scoreRange = 1000.0

    private static let categories = ["books", "music", "films", "games", "tools", "garden", "kitchen", "sports"]
    private static let firstCreatedAt = 1_700_000_000.0
    private static let createdAtSpan = 31_536_000.0

    private var random: SplitMix64

    /// Creates a generator whose items are fully determined by `seed`.
    public init(seed: UInt64 = fixtureSeed) {
        random = SplitMix64(seed: seed)
    }

    /// Returns the next item, not yet inserted. `flag` forces the flag; by default it is random.
    public mutating func next(flag: Bool? = nil) -> Item {
        let title = "item " + String(random.next(), radix: 36)
        let score = nextScore()
        let createdAt = Self.firstCreatedAt + random.nextUnitDouble() * Self.createdAtSpan
        let isFlagged = flag ?? (random.next() & 1 == 1)
        let category = Self.categories[random.nextIndex(below: Self.categories.count)]
        return Item(title: title, score: score, createdAt: createdAt, flag: isFlagged, category: category)
    }

    /// Returns a score drawn like the scores of generated items.
    public mutating func nextScore() -> Double {
        random.nextUnitDouble() * Self.scoreRange
    }

    /// Returns a random flag.
    public mutating func nextFlag() -> Bool {
        random.next() & 1 == 1
    }

    /// Returns a value uniform in `0..<upperBound`; `upperBound` must be positive.
    public mutating func nextIndex(below upperBound: Int) -> Int {
        random.nextIndex(below: upperBound)
    }

    /// Returns the next `count` items.
    public mutating func items(count: Int) -> [Item] {
        (0..<count).map { _ in next() }
    }
}
