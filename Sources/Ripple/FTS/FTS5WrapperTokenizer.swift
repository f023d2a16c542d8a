import CSQLite

/// The callback of `FTS5WrapperTokenizer.accept(token:flags:for:tokenCallback:)`, which
/// gives a token to FTS5.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A custom tokenizer that processes the tokens of another tokenizer in Swift (to remove
/// stop words, add synonyms, or normalize tokens), without C pointers:
///
/// ```swift
/// final class LowercaseTokenizer: FTS5WrapperTokenizer {
///     static let name = "lowercase"
///     let wrappedTokenizer: any FTS5Tokenizer
///     init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61())
///     }
///     func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
///                 tokenCallback: FTS5WrapperTokenCallback) throws {
///         try tokenCallback(token.lowercased(), flags)
///     }
/// }
/// ```
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens `accept(token:flags:for:tokenCallback:)` receives.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Receives a token of the wrapped tokenizer, and gives FTS5 the tokens it stands for
    /// with `tokenCallback` (none, itself, or others: synonyms get the `.colocated` flag).
    ///
    /// - parameter token: the token of the wrapped tokenizer.
    /// - parameter flags: its flags.
    /// - parameter tokenization: why the text is tokenized.
    /// - parameter tokenCallback: gives a token to FTS5.
    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
}

/// What the token callback of the wrapped tokenizer needs to reach the wrapper and FTS5.
private struct FTS5WrapperContext {
    let tokenizer: any FTS5WrapperTokenizer
    let context: UnsafeMutableRawPointer?
    let tokenization: FTS5Tokenization
    let tokenCallback: FTS5TokenCallback
}

extension FTS5WrapperTokenizer {
    /// Runs the wrapped tokenizer, and gives its tokens to `accept(token:flags:for:tokenCallback:)`.
    ///
    /// - parameter context: the context to give to `tokenCallback`.
    /// - parameter tokenization: why the text is tokenized.
    /// - parameter pText: the text, in UTF-8 (not NUL-terminated).
    /// - parameter nText: the length of the text, in bytes.
    /// - parameter tokenCallback: receives each token.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        var wrapperContext = FTS5WrapperContext(tokenizer: self, context: context, tokenization: tokenization, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &wrapperContext) { wrapperContextPointer in
            wrappedTokenizer.tokenize(
                context: wrapperContextPointer,
                tokenization: tokenization,
                pText: pText,
                nText: nText
            ) { wrapperContextPointer, flags, pToken, nToken, iStart, iEnd in
                guard let wrapperContextPointer else { return SQLITE_ERROR }
                guard let token = FTS5TokenText.string(pToken, nToken) else { return SQLITE_OK }
                let wrapper = wrapperContextPointer.assumingMemoryBound(to: FTS5WrapperContext.self).pointee
                do {
                    try wrapper.tokenizer.accept(token: token, flags: FTS5TokenFlags(rawValue: flags), for: wrapper.tokenization) { token, flags in
                        // An empty token says nothing to FTS5: skipped, as GRDB does.
                        var bytes = Array(token.utf8)
                        guard !bytes.isEmpty else { return }
                        let code = bytes.withUnsafeMutableBytes { bytes in
                            wrapper.tokenCallback(
                                wrapper.context, flags.rawValue,
                                bytes.baseAddress?.assumingMemoryBound(to: CChar.self), CInt(bytes.count),
                                iStart, iEnd)
                        }
                        guard code == SQLITE_OK else {
                            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "token callback failed")
                        }
                    }
                    return SQLITE_OK
                } catch let error as DatabaseError {
                    return error.extendedResultCode.rawValue
                } catch {
                    return SQLITE_ERROR
                }
            }
        }
    }
}
