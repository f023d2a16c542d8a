/// A tokenizer of FTS3 and FTS4 tables: `.simple`, `.porter`, `.unicode61()`.
///
/// See <https://www.sqlite.org/fts3.html#tokenizer>.
public struct FTS3TokenizerDescriptor: Sendable {
    /// The tokenizer name: `unicode61`.
    let name: String
    /// The tokenizer arguments: `remove_diacritics=0`.
    let arguments: [String]

    init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The `simple` tokenizer: ASCII letters and digits, and all non-ASCII characters,
    /// make tokens; ASCII letters are folded to lower case.
    public static let simple = FTS3TokenizerDescriptor("simple")

    /// The `porter` tokenizer: the `simple` tokenizer followed by the Porter stemmer, so
    /// that "database" matches "databases".
    public static let porter = FTS3TokenizerDescriptor("porter")

    /// The `unicode61` tokenizer: Unicode 6.1 letters and digits make tokens, folded to
    /// lower case.
    ///
    /// - parameter diacritics: how diacritics are treated (`.removeLegacy` unless told).
    /// - parameter separators: characters that separate tokens, in addition to the default ones.
    /// - parameter tokenCharacters: characters that make tokens, in addition to the default ones.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS3TokenizerDescriptor {
        var arguments: [String] = []
        switch diacritics {
        case .removeLegacy: break
        case .keep: arguments.append("remove_diacritics=0")
        case .remove: arguments.append("remove_diacritics=2")
        }
        if !separators.isEmpty {
            arguments.append("separators=" + String(separators.sorted()))
        }
        if !tokenCharacters.isEmpty {
            arguments.append("tokenchars=" + String(tokenCharacters.sorted()))
        }
        return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
    }

    /// The `tokenize=` module argument of FTS3 and FTS4: `tokenize=unicode61 "remove_diacritics=0"`.
    var tokenizeArgument: String {
        (["tokenize=" + name] + arguments.map { "\"\($0)\"" }).joined(separator: " ")
    }
}
