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
            let scope = Row(base: base, layout: layout)
            if let prefetched = row.prefetchedRowsStorage.subtree(name) { scope.prefetchedRowsStorage = prefetched }
            return scope
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
            // The search walks the layouts, and makes the row of the scope it finds only:
            // `Decodable` records look up each of their keys here.
            guard case .adapted(let base, let layout) = row.storage, !layout.scopes.isEmpty else { return nil }
            var level = [(layout: layout, prefetched: row.prefetchedRowsStorage)]
            while !level.isEmpty {
                for candidate in level {
                    guard let found = candidate.layout.scopes[name] else { continue }
                    let scope = Row(base: base, layout: found)
                    if let prefetched = candidate.prefetched.subtree(name) { scope.prefetchedRowsStorage = prefetched }
                    return scope
                }
                level = level.flatMap { candidate in
                    candidate.layout.scopes.sorted { $0.key < $1.key }.map { scope in
                        (layout: scope.value, prefetched: candidate.prefetched.subtree(scope.key) ?? PrefetchedRowsTree())
                    }
                }
            }
            return nil
        }
    }
}
