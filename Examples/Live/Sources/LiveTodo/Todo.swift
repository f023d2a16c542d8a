import Ripple

/// An item of the list: a Codable record, sent to the page as JSON.
public struct Todo: Codable, Equatable, Hashable, Sendable {
    /// Nil until the todo is inserted.
    public var id: Int64?
    /// What is to be done.
    public var title: String
    /// Whether it is done.
    public var done: Bool

    /// A todo, not done unless said.
    public init(id: Int64? = nil, title: String, done: Bool = false) {
        self.id = id
        self.title = title
        self.done = done
    }
}

extension Todo: FetchableRecord, MutablePersistableRecord {
    /// The columns of the todo table, made from the coding keys.
    public enum Columns {
        /// The primary key.
        public static let id = Column(CodingKeys.id)
        /// The title.
        public static let title = Column(CodingKeys.title)
        /// Whether the todo is done.
        public static let done = Column(CodingKeys.done)
    }

    /// Sets the id of an inserted todo.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
