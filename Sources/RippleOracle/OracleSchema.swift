/// The oracle's model of the random schema: what it needs to generate statements. The
/// truth about the content of the tables is read from SQLite itself (see
/// ``GroundTruth``), never derived from this model.
struct OracleTable {
    enum Shape: CaseIterable {
        /// `id INTEGER PRIMARY KEY`: the rowid has a name.
        case integerPrimaryKey
        /// No declared primary key: the hidden rowid.
        case implicitRowID
        /// `k TEXT PRIMARY KEY ... WITHOUT ROWID`: no rowid at all.
        case withoutRowID
    }

    enum Uniqueness {
        /// `u TEXT UNIQUE`: a conflict is an error (unless the statement says otherwise).
        case plain
        /// `u TEXT UNIQUE ON CONFLICT REPLACE`: a conflicting row is deleted.
        case replace
    }

    /// As the schema spells it (random case).
    let name: String
    var key: String { name.lowercased() }
    let shape: Shape
    let uniqueness: Uniqueness
    /// The parent table of the `p` column (`REFERENCES parent(id)`), with the delete action.
    let parent: (name: String, onDelete: String)?
    let isTemp: Bool
    /// The column added by `ALTER TABLE ADD COLUMN`, if any.
    var addedColumns: [String] = []

    var hasRowID: Bool { shape != .withoutRowID }

    /// The expression of a row's key: the rowid, or the text primary key.
    var keyExpression: String {
        switch shape {
        case .integerPrimaryKey: return "id"
        case .implicitRowID: return "rowid"
        case .withoutRowID: return "k"
        }
    }

    var quotedName: String { "\"\(name)\"" }

    /// The data columns statements write.
    var writableColumns: [String] {
        var columns = ["a", "b", "u", "v"]
        if parent != nil { columns.append("p") }
        return columns
    }

    var createSQL: String {
        var columns: [String] = []
        switch shape {
        case .integerPrimaryKey: columns.append("id INTEGER PRIMARY KEY")
        case .implicitRowID: break
        case .withoutRowID: columns.append("k TEXT PRIMARY KEY")
        }
        columns.append("a INTEGER")
        columns.append("b TEXT NOT NULL DEFAULT ''")
        switch uniqueness {
        case .plain: columns.append("u TEXT UNIQUE")
        case .replace: columns.append("u TEXT UNIQUE ON CONFLICT REPLACE")
        }
        columns.append("v INTEGER NOT NULL DEFAULT 0")
        if let parent {
            columns.append("p INTEGER REFERENCES \"\(parent.name)\"(id) ON DELETE \(parent.onDelete) ON UPDATE CASCADE")
        }
        let temp = isTemp ? "TEMP " : ""
        let suffix = shape == .withoutRowID ? " WITHOUT ROWID" : ""
        return "CREATE \(temp)TABLE \(quotedName) (\(columns.joined(separator: ", ")))\(suffix)"
    }
}

/// A trigger of the random schema: after a change of one table, it writes another one
/// (always a table created later, so that triggers never cycle).
struct OracleTrigger {
    let name: String
    let createSQL: String
    let table: String
}

/// A view of the random schema.
struct OracleView {
    let name: String
    let createSQL: String
    /// The lowercased names of the tables the view reads.
    let tableKeys: Set<String>
}
