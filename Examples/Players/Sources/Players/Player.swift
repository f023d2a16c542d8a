import Ripple

/// A player of the game: a Codable record.
public struct Player: Codable, Identifiable, Equatable, Sendable {
    /// Nil until the player is inserted.
    public var id: Int64?
    public var name: String
    public var score: Int

    public init(id: Int64? = nil, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
    }
}

extension Player: FetchableRecord, MutablePersistableRecord {
    /// The columns of the player table, made from the coding keys.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let name = Column(CodingKeys.name)
        public static let score = Column(CodingKeys.score)
    }

    /// Sets the id of an inserted player.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Player {
    /// Players by name, as a person sorts names.
    public static func orderedByName() -> QueryInterfaceRequest<Player> {
        Player.order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Players by decreasing score, then by name.
    public static func orderedByScore() -> QueryInterfaceRequest<Player> {
        Player.order { [$0.score.desc, $0.name.collating(.localizedCaseInsensitiveCompare)] }
    }

    private static let names = [
        "Arthur", "Anita", "Barbara", "Bernard", "Craig", "Chiara", "David", "Dean", "Éric",
        "Elena", "Fatima", "Frederik", "Gilbert", "Georgette", "Henriette", "Hassan",
    ]

    /// A player with a random name and score.
    public static func makeRandom() -> Player {
        Player(name: names.randomElement()!, score: Int.random(in: 0...1000))
    }
}
