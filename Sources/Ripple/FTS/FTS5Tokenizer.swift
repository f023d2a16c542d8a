import CSQLite
import Foundation

/// The callback that receives the tokens of an FTS5 tokenizer: the context of the
/// tokenization, the `FTS5_TOKEN_*` flags, the token bytes (UTF-8, not NUL-terminated)
/// and their length, and the byte range of the token in the input text.
public typealias FTS5TokenCallback =
    @convention(c) (
        _ context: UnsafeMutableRawPointer?,
        _ flags: CInt,
        _ pToken: UnsafePointer<CChar>?,
        _ nToken: CInt,
        _ iStart: CInt,
        _ iEnd: CInt
    ) -> CInt

/// Why FTS5 tokenizes a text: a document to index, a query, a prefix query, or an
/// auxiliary function.
public struct FTS5Tokenization: OptionSet, Sendable {
    /// The `FTS5_TOKENIZE_*` bits.
    public let rawValue: CInt

    /// Creates a tokenization from `FTS5_TOKENIZE_*` bits.
    ///
    /// - parameter rawValue: the bits.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// A query (`FTS5_TOKENIZE_QUERY`).
    public static let query = FTS5Tokenization(rawValue: FTS5_TOKENIZE_QUERY)

    /// A prefix query, with `query` (`FTS5_TOKENIZE_PREFIX`).
    public static let prefix = FTS5Tokenization(rawValue: FTS5_TOKENIZE_PREFIX)

    /// A document that is inserted or deleted (`FTS5_TOKENIZE_DOCUMENT`).
    public static let document = FTS5Tokenization(rawValue: FTS5_TOKENIZE_DOCUMENT)

    /// A text given to an auxiliary function (`FTS5_TOKENIZE_AUX`).
    public static let aux = FTS5Tokenization(rawValue: FTS5_TOKENIZE_AUX)
}

/// The flags of a token.
public struct FTS5TokenFlags: OptionSet, Sendable {
    /// The `FTS5_TOKEN_*` bits.
    public let rawValue: CInt

    /// Creates flags from `FTS5_TOKEN_*` bits.
    ///
    /// - parameter rawValue: the bits.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// The token is a synonym of the previous one, at the same place (`FTS5_TOKEN_COLOCATED`).
    public static let colocated = FTS5TokenFlags(rawValue: FTS5_TOKEN_COLOCATED)
}

/// An FTS5 tokenizer: a built-in one made by `Database.makeTokenizer(_:)`, or a custom one.
///
/// See <https://www.sqlite.org/fts5.html#custom_tokenizers>.
public protocol FTS5Tokenizer: AnyObject {
    /// Cuts a text into tokens, given one by one to `tokenCallback` with `context`, and
    /// returns `SQLITE_OK`, or an error code (the first one `tokenCallback` returns, for
    /// example).
    ///
    /// - parameter context: the context to give to `tokenCallback`.
    /// - parameter tokenization: why the text is tokenized.
    /// - parameter pText: the text, in UTF-8 (not NUL-terminated).
    /// - parameter nText: the length of the text, in bytes.
    /// - parameter tokenCallback: receives each token.
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt
}

extension FTS5Tokenizer {
    /// The tokens of a document, as FTS5 indexes them.
    ///
    /// - parameter string: the text.
    public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokens(of: string, for: .document)
    }

    /// The tokens of a query, as FTS5 searches them.
    ///
    /// - parameter string: the text.
    public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokens(of: string, for: .query)
    }

    private func tokens(of string: String, for tokenization: FTS5Tokenization) throws -> [(token: String, flags: FTS5TokenFlags)] {
        var utf8 = Array(string.utf8)
        var tokens: [(token: String, flags: FTS5TokenFlags)] = []
        let code = utf8.withUnsafeMutableBytes { text in
            withUnsafeMutablePointer(to: &tokens) { tokensPointer in
                tokenize(
                    context: UnsafeMutableRawPointer(tokensPointer),
                    tokenization: tokenization,
                    pText: text.baseAddress?.assumingMemoryBound(to: CChar.self),
                    nText: CInt(text.count),
                    tokenCallback: { context, flags, pToken, nToken, _, _ in
                        guard let context else { return SQLITE_ERROR }
                        // A token that is not UTF-8 is skipped, as GRDB does.
                        guard let token = FTS5TokenText.string(pToken, nToken) else { return SQLITE_OK }
                        context.assumingMemoryBound(to: [(token: String, flags: FTS5TokenFlags)].self)
                            .pointee.append((token, FTS5TokenFlags(rawValue: flags)))
                        return SQLITE_OK
                    })
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "FTS5 tokenization failed")
        }
        return tokens
    }
}

/// The text of tokens given to token callbacks.
enum FTS5TokenText {
    /// The token, if its bytes are UTF-8.
    static func string(_ pToken: UnsafePointer<CChar>?, _ nToken: CInt) -> String? {
        guard let pToken, nToken >= 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: pToken, count: Int(nToken))
        let string = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs bad bytes with U+FFFD: a repaired string has other bytes.
        return string.utf8.elementsEqual(bytes) ? string : nil
    }
}
