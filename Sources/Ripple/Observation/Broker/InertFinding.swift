/// That a statement could matter to no observer, and what that finding rests on: a
/// statement run in a loop (an import) that no observer cares about, or no longer in this
/// transaction, is found inert once, and its next runs cost a comparison (W1c, W1d, W8;
/// (measured: Benchmarks/README.md, "Shortcuts")).
///
/// Made only when the broker had no application observer to ask: those are asked
/// `observes(eventsOfKind:)` before each statement, as the seeds promise. What else the
/// finding rests on is in its fields, and it holds while they stay the same:
///
/// - the statement and its report (SQLite compiled it again: a new report);
/// - the registry's generation: the observers and the region index (an observer added,
///   removed, or a region changed);
/// - the impact epoch: within one transaction, a region observer once touched stays so
///   (see `DatabaseObservationBroker.impactEpoch`), so an inert statement stays inert;
/// - the version of the schema facts that the statement's activation was made with.
struct InertFinding {
    /// The statement's identity, and its report's: the broker keeps the report alive, so
    /// that its identity is not given to another one.
    let statementID: ObjectIdentifier
    let reportID: ObjectIdentifier
    let generation: Int
    let impactEpoch: Int
    let schemaFactsVersion: Int

    init(statement: Statement, generation: Int, impactEpoch: Int, schemaFactsVersion: Int) {
        statementID = ObjectIdentifier(statement)
        reportID = ObjectIdentifier(statement.report)
        self.generation = generation
        self.impactEpoch = impactEpoch
        self.schemaFactsVersion = schemaFactsVersion
    }

    /// Whether the finding holds for `statement` now. `schemaFactsVersion` is nil when the
    /// facts are unknown or may be stale.
    func holds(for statement: Statement, generation: Int, impactEpoch: Int, schemaFactsVersion: Int?) -> Bool {
        statementID == ObjectIdentifier(statement) && reportID == ObjectIdentifier(statement.report)
            && self.generation == generation && self.impactEpoch == impactEpoch
            && self.schemaFactsVersion == schemaFactsVersion
    }
}
