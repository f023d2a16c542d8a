/// What the broker knows of the schema: the ``SchemaFacts`` it read, until the schema
/// changes, and whether they may be stale (SQLite compiled the running statement again:
/// the schema changed, maybe through another connection).
///
/// What the broker derives from the facts (a statement's activation, an inert finding)
/// records their `version`, and serves while `usableVersion` stays the same.
struct SchemaKnowledge {
    /// The facts read, if any. Their version is kept apart, read for each statement without
    /// copying the facts.
    private(set) var facts: SchemaFacts?
    private(set) var version: Int?
    /// Set when SQLite compiled the running statement again: the facts are read again after
    /// the statement, and serve until then.
    private(set) var mayBeStale = false

    /// The version of the facts, when they are known and not stale.
    var usableVersion: Int? { mayBeStale ? nil : version }

    mutating func learn(_ facts: SchemaFacts?) {
        self.facts = facts
        version = facts?.version
    }

    /// The schema changed: the facts are read again when needed.
    mutating func forget() {
        facts = nil
        version = nil
    }

    /// SQLite compiled the running statement again: the facts serve until the statement
    /// ends, then are forgotten.
    mutating func markStale() {
        mayBeStale = true
    }

    /// After a statement: the facts are forgotten when it changed the schema, or SQLite
    /// compiled it again.
    mutating func statementDidEnd(changedSchema: Bool) {
        guard changedSchema || mayBeStale else { return }
        forget()
        mayBeStale = false
    }
}
