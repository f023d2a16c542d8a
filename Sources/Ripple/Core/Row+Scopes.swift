extension Row {
    /// The named scopes of a row fetched with a ``ScopeAdapter`` (empty otherwise).
    ///
    /// ```swift
    /// let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 4)])
    /// let row = try Row.fetchOne(db, sql: "SELECT player.*, team.* FROM ...", adapter: adapter)!
    /// let teamName: String = row.scopes["team"]!["name"]
    /// ```
    public var scopes: ScopesView { ScopesView(row: self) }

    /// The scopes of the row and of its scopes, searched breadth-first:
    /// `row.scopesTree["country"]` finds a scope nested in another one.
    public var scopesTree: ScopesTreeView { ScopesTreeView(row: self) }

    /// The row without its scopes and prefetched rows (same columns).
    public var unscoped: Row {
        guard case .adapted(let base, let layout) = storage else {
            guard !prefetchedRowsStorage.isEmpty else { return self }
            return Row(base: self, layout: RowAdapterLayout(names: columnNames, baseIndexes: Array(0..<count)))
        }
        guard !layout.scopes.isEmpty || !prefetchedRowsStorage.isEmpty else { return self }
        return Row(base: base, layout: RowAdapterLayout(names: layout.names, baseIndexes: layout.baseIndexes))
    }

    /// The fetched row, before any adapter.
    public var unadapted: Row {
        guard case .adapted(let base, _) = storage else { return self }
        return base.unadapted
    }

    /// The layout of the scopes, and the row they adapt.
    private var scopeLayouts: (base: Row, scopes: [String: RowAdapterLayout])? {
        guard case .adapted(let base, let layout) = storage, !layout.scopes.isEmpty else { return nil }
        return (base, layout.scopes)
    }

    /// The scopes of a row, by name.
    public struct ScopesView: Sequence {
        let row: Row

        /// The names of the scopes.
        public var names: Set<String> { row.scopeLayouts.map { Set($0.scopes.keys) } ?? [] }

        public var isEmpty: Bool { row.scopeLayouts == nil }

        public var count: Int { row.scopeLayouts?.scopes.count ?? 0 }

        /// The scope named `name`, nil when there is none.
        public subscript(_ name: String) -> Row? {
            guard let (base, scopes) = row.scopeLayouts, let layout = scopes[name] else { return nil }
            return scopeRow(name, base, layout)
        }

        /// The scopes as `(name, row)` pairs, sorted by name.
        public func makeIterator() -> IndexingIterator<[(name: String, row: Row)]> {
            guard let (base, scopes) = row.scopeLayouts else { return [].makeIterator() }
            return scopes.sorted { $0.key < $1.key }.map { (name: $0.key, row: scopeRow($0.key, base, $0.value)) }.makeIterator()
        }

        /// A scope's row, with the rows its association prefetched.
        private func scopeRow(_ name: String, _ base: Row, _ layout: RowAdapterLayout) -> Row {
            // (A scope of the row is what the breadth-first search finds first.)
            row.scopeRow(name, base: base) { (layout, [name]) }!
        }
    }

    /// The scopes of a row and of its scopes, searched breadth-first.
    public struct ScopesTreeView {
        let row: Row

        /// The names of all scopes, at any depth.
        public var names: Set<String> {
            var names = Set<String>()
            var rows = [row]
            while !rows.isEmpty {
                let scopes = rows.flatMap { Array($0.scopes) }
                names.formUnion(scopes.map(\.name))
                rows = scopes.map(\.row)
            }
            return names
        }

        /// The first scope named `name`, breadth-first; nil when there is none.
        public subscript(_ name: String) -> Row? {
            // `Decodable` records look up each of their keys here: the search walks the
            // layouts, and a cursor's row keeps what it found for the next records.
            guard case .adapted(let base, let layout) = row.storage, !layout.scopes.isEmpty else { return nil }
            return row.scopeRow(name, base: base) { Self.search(name, in: layout) }
        }

        /// The layout of the first scope named `name`, breadth-first, and the names of
        /// the scopes on the way to it, its own last.
        private static func search(_ name: String, in layout: RowAdapterLayout) -> (RowAdapterLayout, [String])? {
            var level = [(layout: layout, path: [String]())]
            while !level.isEmpty {
                for candidate in level {
                    if let found = candidate.layout.scopes[name] { return (found, candidate.path + [name]) }
                }
                level = level.flatMap { candidate in
                    candidate.layout.scopes.sorted { $0.key < $1.key }.map { (layout: $0.value, path: candidate.path + [$0.key]) }
                }
            }
            return nil
        }
    }

    /// The row of the scope `name` of this row, adapted from `base`, with the rows its
    /// association prefetched; nil when `search` (the scope's layout and path) finds none.
    /// A cursor's row keeps the scope rows it made, and the names of no scope, for the
    /// next records (see `CursorRowReuse`).
    fileprivate func scopeRow(_ name: String, base: Row, search: () -> (RowAdapterLayout, [String])?) -> Row? {
        guard let cursorConnection else {
            guard let (layout, path) = search() else { return nil }
            let scope = Row(base: base, layout: layout)
            scope.prefetchedRowsStorage = prefetchedRowsStorage.subtree(path: path)
            return scope
        }
        if !Row.holdsAccess(cursorConnection) { Row.rowUsedOutsideOfAccess() }
        let reuse = self.reuse ?? CursorRowReuse()
        self.reuse = reuse
        let scope: CursorRowReuse.Scope?
        if let known = reuse.scopes[name] {
            scope = known
        } else {
            scope = search().map { CursorRowReuse.Scope(row: Row(base: base, layout: $0.0), path: $0.1) }
            reuse.scopes[name] = .some(scope)
        }
        guard let scope else { return nil }
        // The prefetched rows are the current record's.
        if !prefetchedRowsStorage.isEmpty || !scope.row.prefetchedRowsStorage.isEmpty {
            scope.row.prefetchedRowsStorage = prefetchedRowsStorage.subtree(path: scope.path)
        }
        return scope.row
    }
}
