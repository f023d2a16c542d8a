/// A tokenizer of FTS5 tables: `.ascii()`, `.porter()`, `.unicode61()`, or any registered
/// tokenizer and its arguments.
///
/// See <https://www.sqlite.org/fts5.html#tokenizers>.
public struct FTS5TokenizerDescriptor: Sendable {
    /// The tokenizer name, then its arguments: `["unicode61", "remove_diacritics", "0"]`.
    public let components: [String]

    /// The tokenizer name.
    var name: String { components[0] }

    /// The tokenizer arguments.
    var arguments: [String] { Array(components.dropFirst()) }

    /// Creates a descriptor from the tokenizer name and its arguments.
    ///
    /// An empty array is a programmer error.
    ///
    /// - parameter components: the tokenizer name, then its arguments.
    public init(components: [String]) {
        precondition(!components.isEmpty, "FTS5TokenizerDescriptor requires at least one component: the tokenizer name.")
        self.components = components
    }

    /// The `ascii` tokenizer: ASCII letters and digits, and all non-ASCII characters,
    /// make tokens; ASCII letters are folded to lower case.
    ///
    /// - parameter separators: characters that separate tokens, in addition to the default ones.
    /// - parameter tokenCharacters: characters that make tokens, in addition to the default ones.
    public static func ascii(separators: Set<Character> = [], tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["ascii"] + characterArguments(separators: separators, tokenCharacters: tokenCharacters))
    }

    /// The `porter` tokenizer: the Porter stemmer on the tokens of another tokenizer, so
    /// that "database" matches "databases".
    ///
    /// - parameter base: the wrapped tokenizer (nil: SQLite's default, `unicode61`).
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// The `unicode61` tokenizer: Unicode letters and digits make tokens, folded to lower case.
    ///
    /// - parameter diacritics: how diacritics are treated (`.removeLegacy` unless told).
    /// - parameter categories: the Unicode categories of token characters (empty: SQLite's default).
    /// - parameter separators: characters that separate tokens, in addition to the default ones.
    /// - parameter tokenCharacters: characters that make tokens, in addition to the default ones.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy,
        categories: String = "",
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS5TokenizerDescriptor {
        var components = ["unicode61"]
        switch diacritics {
        case .removeLegacy: break
        case .keep: components += ["remove_diacritics", "0"]
        case .remove: components += ["remove_diacritics", "2"]
        }
        if !categories.isEmpty { components += ["categories", categories] }
        return FTS5TokenizerDescriptor(components: components + characterArguments(separators: separators, tokenCharacters: tokenCharacters))
    }

    private static func characterArguments(separators: Set<Character>, tokenCharacters: Set<Character>) -> [String] {
        var arguments: [String] = []
        if !separators.isEmpty { arguments += ["separators", String(separators.sorted())] }
        if !tokenCharacters.isEmpty { arguments += ["tokenchars", String(tokenCharacters.sorted())] }
        return arguments
    }
}
