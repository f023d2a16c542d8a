/// What the broker decides about a statement once, and keeps with it from one execution to
/// the next: the kinds of changes it may make (``StatementActivation``), and its last
/// execution, to serve again.
extension DatabaseObservationBroker {
    /// The kinds of changes the statement may make, kept with the statement until its
    /// report or the schema changes: moved out of the statement, which gets it back (see
    /// `startExecution(of:)`).
    func takeCachedActivation(for statement: Statement) -> CachedActivation {
        if let cached = statement.observation.cache.take() {
            if cached.report === statement.report, let version = schema.usableVersion, cached.schemaFacts == version {
                return cached
            }
        }
        let facts = schema.mayBeStale ? nil : currentSchemaFacts()
        let cacheable = facts != nil
        let sql = statement.sql
        let statementMayReplace = sql.mentionsASCIIKeyword("replace")
        let activation = StatementActivation(writes: statement.report.writes) { key in
            guard let facts else { return true }
            return statementMayReplace || facts.mayReplace(tableKey: key)
        }
        // Inserts only, into rowid tables, where REPLACE can delete nothing: the update hook
        // reports the same rows as the pre-update hook (see RowHooks.swift).
        let updateHookSuffices =
            facts.map { facts in
                !statement.report.changesSchema
                    && statement.report.writes.allSatisfy { write in
                        StatementReport.isInternalTable(write.name)
                            || (write.inserts && !write.deletes && write.updatedColumns == nil && !statementMayReplace
                                && !facts.mayReplace(tableKey: write.key) && !facts.mayLackRowID(tableKey: write.key))
                    }
            } ?? false
        let cache = CachedActivation(
            report: statement.report, schemaFacts: facts?.version, activation: activation,
            isCacheable: cacheable, updateHookSuffices: updateHookSuffices)
        return cache
    }

    /// What the broker keeps with a statement from one execution to the next.
    final class CachedActivation {
        let report: StatementReport
        let schemaFacts: Int?
        let activation: StatementActivation
        /// Whether it is kept with the statement.
        let isCacheable: Bool
        /// Whether the update hook reports the same rows as the pre-update hook: the
        /// statement only inserts, into rowid tables, and no REPLACE can delete a row.
        let updateHookSuffices: Bool
        /// The number of questions of `activation`, read without copying it.
        let questionCount: Int
        /// The event kinds of `activation`'s questions.
        private let eventKinds: [DatabaseEventKind]
        /// The statement's last execution, to serve again (see `startExecution(of:)`).
        /// (Its accesses call nothing: the optimizer proves them exclusive, unchecked.)
        var execution: StatementExecution?

        /// Asks the observer each question once, and returns what it accepts, bit `i` for
        /// question `i`. Only for at most `StatementActivation.maximumMaskedQuestions`
        /// questions. (The kinds are read in place from this object's constant list: a
        /// copy of a kind retains its strings.)
        func acceptanceMask(of observer: any TransactionObserver) -> UInt64 {
            assert(eventKinds.count <= StatementActivation.maximumMaskedQuestions)
            var mask: UInt64 = 0
            for index in eventKinds.indices where observer.observes(eventsOfKind: eventKinds[index]) {
                mask |= 1 << UInt64(index)
            }
            return mask
        }
        init(report: StatementReport, schemaFacts: Int?, activation: StatementActivation, isCacheable: Bool, updateHookSuffices: Bool) {
            self.report = report
            self.updateHookSuffices = updateHookSuffices
            self.schemaFacts = schemaFacts
            self.activation = activation
            self.isCacheable = isCacheable
            self.questionCount = activation.questions.count
            self.eventKinds = activation.eventKinds
        }
    }
}
