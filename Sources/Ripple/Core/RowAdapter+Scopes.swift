extension RowAdapter {
    /// The adapter, with the given scopes added: they replace the scopes of the same name
    /// that the adapter may already define.
    ///
    /// ```swift
    /// let adapter = SuffixRowAdapter(fromIndex: 2).addingScopes(["team": RangeRowAdapter(0..<2)])
    /// ```
    ///
    /// - parameter scopes: Row adapters, by scope name.
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        scopes.isEmpty ? self : ScopeAdapter(base: self, scopes: scopes)
    }
}
