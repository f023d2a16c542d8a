extension StatementArguments {
    /// The concatenation of two sets of arguments, where the named values of `rhs`
    /// replace those of the same name in `lhs` (as `+` does in Ripple).
    ///
    /// - parameter lhs: The first arguments.
    /// - parameter rhs: The arguments appended to them.
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        lhs + rhs
    }

    /// Appends `rhs` to `lhs` (see `append(contentsOf:)`).
    ///
    /// - parameter lhs: The arguments to extend.
    /// - parameter rhs: The arguments to append.
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        lhs.append(contentsOf: rhs)
    }
}
