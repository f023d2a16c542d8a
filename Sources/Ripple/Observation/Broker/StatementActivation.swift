/// Pure decisions about one statement, before it runs: which kinds of events it may cause,
/// and which kinds each observer accepts. No SQLite here: tested with plain values.
///
/// The seeds' contract: before a statement runs, each transaction observer is asked
/// `observes(eventsOfKind:)` once for each kind of change the statement may make; those
/// that accept one are told of the matching row changes, and only of those.
struct StatementActivation: Equatable {
    /// The kinds of row changes a statement may cause to one table.
    struct Kinds: OptionSet, Hashable {
        let rawValue: UInt8
        static let insert = Kinds(rawValue: 1)
        static let delete = Kinds(rawValue: 2)
        static let update = Kinds(rawValue: 4)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ kind: DatabaseEvent.Kind) {
            switch kind {
            case .insert: self = .insert
            case .delete: self = .delete
            case .update: self = .update
            }
        }
    }

    /// A kind of change to a table, as asked to observers.
    struct Question: Equatable {
        /// The lowercased table name.
        let tableKey: String
        let kind: Kinds
        let eventKind: DatabaseEventKind
    }

    /// What user observers are asked, in a stable order: for each table (in the order
    /// SQLite reported them), inserts, deletes, then updates.
    let questions: [Question]
    /// The event kinds of `questions`, in the same order.
    let eventKinds: [DatabaseEventKind]

    /// The questions for a statement's writes.
    ///
    /// - parameter mayReplace: whether inserts and updates into a table may delete rows
    ///   through `REPLACE` conflict resolution. SQLite's authorizer does not report those
    ///   deletions, but they are row changes observers must hear about: the statement is
    ///   then also asked about as a deletion.
    init(writes: [StatementReport.TableWrites], mayReplace: (String) -> Bool) {
        var questions: [Question] = []
        for write in writes where !StatementReport.isInternalTable(write.name) {
            let replaces = (write.inserts || write.updatedColumns != nil) && mayReplace(write.key)
            if write.inserts {
                questions.append(Question(tableKey: write.key, kind: .insert, eventKind: .insert(tableName: write.name)))
            }
            if write.deletes || replaces {
                questions.append(Question(tableKey: write.key, kind: .delete, eventKind: .delete(tableName: write.name)))
            }
            if let columns = write.updatedColumns {
                questions.append(Question(tableKey: write.key, kind: .update, eventKind: .update(tableName: write.name, columnNames: columns)))
            }
        }
        self.questions = questions
        self.eventKinds = questions.map(\.eventKind)
    }

    /// The kinds an observer accepts, for each table: what it answered yes to.
    struct Acceptance: Equatable {
        /// Per lowercased table name. Most statements write one table: a short array.
        private(set) var kindsByTable: [(tableKey: String, kinds: Kinds)] = []

        var isEmpty: Bool { kindsByTable.isEmpty }

        mutating func accept(_ kind: Kinds, tableKey: String) {
            if let index = kindsByTable.firstIndex(where: { $0.tableKey == tableKey }) {
                kindsByTable[index].kinds.insert(kind)
            } else {
                kindsByTable.append((tableKey, kind))
            }
        }

        /// The accepted kinds for a table.
        func kinds(forTableKey tableKey: String) -> Kinds {
            kindsByTable.first { $0.tableKey == tableKey }?.kinds ?? []
        }

        static func == (lhs: Acceptance, rhs: Acceptance) -> Bool {
            lhs.kindsByTable.elementsEqual(rhs.kindsByTable) { $0.tableKey == $1.tableKey && $0.kinds == $1.kinds }
        }
    }

    /// The most questions a mask of answers holds (`CachedActivation.acceptanceMask(of:)`).
    static let maximumMaskedQuestions = 64

    /// The acceptance that a mask of answers stands for (bit `i` for question `i`).
    func acceptance(mask: UInt64) -> Acceptance {
        var acceptance = Acceptance()
        for index in questions.indices where mask & (1 << UInt64(index)) != 0 {
            acceptance.accept(questions[index].kind, tableKey: questions[index].tableKey)
        }
        return acceptance
    }

    /// Asks `observes` each question once, and returns what it accepts.
    func acceptance(_ observes: (DatabaseEventKind) -> Bool) -> Acceptance {
        var acceptance = Acceptance()
        for question in questions where observes(question.eventKind) {
            acceptance.accept(question.kind, tableKey: question.tableKey)
        }
        return acceptance
    }

    /// Whether a region observer's region may be touched by the statement: some table of
    /// the region is written, with an insert, a delete, or an update of a watched column.
    static func mayTouch(_ region: DatabaseRegion, writes: [StatementReport.TableWrites]) -> Bool {
        writes.contains { write in
            (write.inserts && region.isModified(byChangeOf: write.key, kind: .insert))
                || (write.deletes && region.isModified(byChangeOf: write.key, kind: .delete))
                || (write.updatedColumns.map { region.isModified(byChangeOf: write.key, kind: .update($0)) } ?? false)
        }
    }

    /// Whether a change of `kinds` to a table touches a watcher of `columns` (nil: all):
    /// inserts and deletes touch it whatever its columns; updates touch it when the
    /// statement updates one of its columns (`updatedColumns` nil: unknown, any).
    static func touches(_ kinds: Kinds, updatedColumns: Set<String>?, watchedColumns: Set<String>?) -> Bool {
        if kinds.contains(.insert) || kinds.contains(.delete) { return true }
        guard kinds.contains(.update) else { return false }
        guard let watchedColumns, let updatedColumns else { return true }
        return updatedColumns.contains { watchedColumns.contains($0.lowercased()) }
    }
}
