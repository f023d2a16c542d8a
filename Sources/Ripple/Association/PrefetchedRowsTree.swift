/// The rows that `including(all:)` prefetched for a fetched row, by association key.
///
/// A row holds the associations it prefetches itself, and, under the key of each
/// association it joins, those that association prefetches:
/// `B.including(optional: B.a.including(all: A.cs))` gives each `b` row the tree
/// `a → cs`. Its scope `a` holds the subtree, so that `row.scopes["a"]!.prefetchedRows["cs"]`
/// and `row.prefetchedRows["cs"]` are the same rows (a breadth-first search, as GRDB's).
struct PrefetchedRowsTree: Equatable {
    struct Node: Equatable {
        var key: String
        /// Nil for the key of a joined association, which only holds nested prefetches.
        var rows: [Row]?
        var children: PrefetchedRowsTree
    }

    /// In the order of the request's associations, so that a search finds the first.
    private(set) var nodes: [Node] = []

    var isEmpty: Bool { nodes.isEmpty }

    /// The subtree under the key of a joined association.
    func subtree(_ key: String) -> PrefetchedRowsTree? {
        nodes.first { $0.key == key }?.children
    }

    /// The subtree at the end of `path`, the keys of joined associations; empty when
    /// there is none.
    func subtree(path: [String]) -> PrefetchedRowsTree {
        var tree = self
        for key in path {
            guard !tree.isEmpty, let next = tree.subtree(key) else { return PrefetchedRowsTree() }
            tree = next
        }
        return tree
    }

    /// Sets the rows at the end of `path`: the keys of the joined associations, then the
    /// key of the prefetched one.
    mutating func setRows(_ rows: [Row], at path: ArraySlice<String>) {
        guard let key = path.first else { return }
        let index: Int
        if let existing = nodes.firstIndex(where: { $0.key == key }) {
            index = existing
        } else {
            nodes.append(Node(key: key, rows: nil, children: PrefetchedRowsTree()))
            index = nodes.count - 1
        }
        if path.count == 1 {
            nodes[index].rows = rows
        } else {
            nodes[index].children.setRows(rows, at: path.dropFirst())
        }
    }

    /// The first rows of key `key`, breadth-first.
    subscript(_ key: String) -> [Row]? {
        var level = nodes
        while !level.isEmpty {
            if let rows = level.first(where: { $0.key == key && $0.rows != nil })?.rows { return rows }
            level = level.flatMap(\.children.nodes)
        }
        return nil
    }

    /// The keys of all prefetched rows, at any depth.
    var keys: Set<String> {
        var keys: Set<String> = []
        var level = nodes
        while !level.isEmpty {
            for node in level where node.rows != nil { keys.insert(node.key) }
            level = level.flatMap(\.children.nodes)
        }
        return keys
    }
}
