import CSQLite
import Foundation

extension FTS5 {
    /// The FTS5 C API of the connection (`fts5_api`, from the `CSQLite` module), for
    /// auxiliary functions written in C.
    ///
    /// A connection without FTS5 is a fatal error.
    ///
    /// - parameter db: the connection.
    public static func api(_ db: Database) -> UnsafePointer<fts5_api> {
        do {
            return try UnsafePointer(connectionAPI(db))
        } catch {
            fatalError("FTS5 is not available: \(error)")
        }
    }

    /// The FTS5 API of the connection, where tokenizers are found and registered.
    ///
    /// See <https://www.sqlite.org/fts5.html#extending_fts5>.
    static func connectionAPI(_ db: Database) throws -> UnsafeMutablePointer<fts5_api> {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db.sqliteConnection, "SELECT fts5(?)", -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "FTS5 is not available")
        }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        // SQLite keeps the type name until the statement is finalized: a static string.
        let type: StaticString = "fts5_api_ptr"
        withUnsafeMutablePointer(to: &api) { apiPointer in
            let typeName = UnsafeRawPointer(type.utf8Start).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_pointer(statement, 1, apiPointer, typeName, nil)
            _ = sqlite3_step(statement)
        }
        guard let api else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available")
        }
        return api
    }
}

extension Database {
    /// Returns a tokenizer, built-in (`.ascii()`, `.porter()`, `.unicode61()`) or custom
    /// (registered with `add(tokenizer:)`), to tokenize text as FTS5 does:
    ///
    /// ```swift
    /// let tokenizer = try db.makeTokenizer(.unicode61())
    /// let tokens = try tokenizer.tokenize(query: "Élan vital").map(\.token) // ["elan", "vital"]
    /// ```
    ///
    /// Throws a `DatabaseError` if there is no such tokenizer, or if it rejects its arguments.
    /// The tokenizer belongs to this connection: use it only inside its database accesses.
    ///
    /// - parameter descriptor: the tokenizer and its arguments.
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        let api = try FTS5.connectionAPI(self)
        guard let findTokenizer = api.pointee.xFindTokenizer else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 can not find tokenizers")
        }
        var module = fts5_tokenizer()
        var userData: UnsafeMutableRawPointer?
        let code = findTokenizer(api, descriptor.name, &userData, &module)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "no such tokenizer: \(descriptor.name)")
        }
        return try FTS5RegisteredTokenizer(module: module, userData: userData, arguments: descriptor.arguments)
    }
}

/// A tokenizer registered in FTS5, built-in or custom, created with its arguments.
private final class FTS5RegisteredTokenizer: FTS5Tokenizer {
    private let module: fts5_tokenizer
    private let handle: OpaquePointer

    init(module: fts5_tokenizer, userData: UnsafeMutableRawPointer?, arguments: [String]) throws {
        guard let create = module.xCreate else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 tokenizer without xCreate")
        }
        let cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var azArg = cStrings.map { $0.map { UnsafePointer($0) } }
        var handle: OpaquePointer?
        let code = azArg.withUnsafeMutableBufferPointer { azArg in
            create(userData, azArg.baseAddress, CInt(azArg.count), &handle)
        }
        guard code == SQLITE_OK, let handle else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code == SQLITE_OK ? SQLITE_ERROR : code), message: "FTS5 tokenizer creation failed")
        }
        self.module = module
        self.handle = handle
    }

    deinit {
        module.xDelete?(handle)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        guard let tokenize = module.xTokenize else { return SQLITE_ERROR }
        return tokenize(handle, context, tokenization.rawValue, pText, nText, tokenCallback)
    }
}
