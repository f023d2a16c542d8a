import CSQLite

/// A tokenizer written in Swift, registered in a connection with `Database.add(tokenizer:)`
/// and used by FTS5 tables through `tokenizerDescriptor(arguments:)`:
///
/// ```swift
/// final class MyTokenizer: FTS5CustomTokenizer {
///     static let name = "my_tokenizer"
///     init(db: Database, arguments: [String]) throws { ... }
///     func tokenize(...) -> CInt { ... }
/// }
///
/// try db.add(tokenizer: MyTokenizer.self)
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = MyTokenizer.tokenizerDescriptor()
///     t.column("content")
/// }
/// ```
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The name of the tokenizer, unique in a connection.
    static var name: String { get }

    /// Creates a tokenizer, for an FTS5 table or `Database.makeTokenizer(_:)`.
    ///
    /// - parameter db: the connection.
    /// - parameter arguments: the arguments that follow the tokenizer name in the descriptor.
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// The descriptor of this tokenizer with its arguments, for the `tokenizer` of FTS5
    /// table definitions and `Database.makeTokenizer(_:)`.
    ///
    /// - parameter arguments: the tokenizer arguments.
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}

extension Database {
    /// Registers a custom tokenizer in this connection, under its `name`. Register it in
    /// `Configuration.prepareDatabase` for all connections of a pool.
    ///
    /// A failed registration (FTS5 missing) is a fatal error.
    ///
    /// - parameter tokenizer: the tokenizer type.
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        do {
            try FTS5TokenizerRegistration.register(Tokenizer.self, in: self)
        } catch {
            fatalError("Could not register the FTS5 tokenizer \(Tokenizer.name): \(error)")
        }
    }
}

/// The C functions and the user data through which FTS5 creates, runs and deletes the
/// instances of a custom tokenizer.
private final class FTS5TokenizerRegistration {
    // The connection owns the registration (FTS5 keeps it until the connection closes).
    weak var db: Database?
    let make: (Database, [String]) throws -> any FTS5Tokenizer

    private init(db: Database, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) {
        self.db = db
        self.make = make
    }

    static func register<Tokenizer: FTS5CustomTokenizer>(_ type: Tokenizer.Type, in db: Database) throws {
        let api = try FTS5.connectionAPI(db)
        guard let createTokenizer = api.pointee.xCreateTokenizer else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 can not register tokenizers")
        }
        let registration = FTS5TokenizerRegistration(db: db) { try Tokenizer(db: $0, arguments: $1) }
        var module = fts5_tokenizer(xCreate: xCreate, xDelete: xDelete, xTokenize: xTokenize)
        // Released by FTS5 with xDestroy, also when the registration fails.
        let userData = _CallbackContext<AnyObject>.retained(registration)
        let code = createTokenizer(
            api, Tokenizer.name, userData, &module,
            { userData in
                if let userData { _CallbackContext<AnyObject>.release(userData) }
            })
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not register the FTS5 tokenizer \(Tokenizer.name)")
        }
    }
}

private func xCreate(
    _ userData: UnsafeMutableRawPointer?,
    _ azArg: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ nArg: CInt,
    _ ppOut: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    guard let userData, let ppOut,
        let registration = _CallbackContext<AnyObject>.retainedObject(userData) as? FTS5TokenizerRegistration,
        let db = registration.db
    else { return SQLITE_ERROR }
    let arguments = (0..<Int(max(nArg, 0))).compactMap { azArg?[$0].map { String(cString: $0) } }
    do {
        let tokenizer = try registration.make(db, arguments)
        // Released by xDelete.
        ppOut.pointee = OpaquePointer(_CallbackContext<AnyObject>.retained(tokenizer))
        return SQLITE_OK
    } catch let error as DatabaseError {
        return error.extendedResultCode.rawValue
    } catch {
        return SQLITE_ERROR
    }
}

private func xDelete(_ tokenizer: OpaquePointer?) {
    if let tokenizer { _CallbackContext<AnyObject>.release(UnsafeMutableRawPointer(tokenizer)) }
}

private func xTokenize(
    _ tokenizer: OpaquePointer?,
    _ context: UnsafeMutableRawPointer?,
    _ flags: CInt,
    _ pText: UnsafePointer<CChar>?,
    _ nText: CInt,
    _ tokenCallback: FTS5TokenCallback?
) -> CInt {
    guard let tokenizer, let tokenCallback,
        let object = _CallbackContext<AnyObject>.retainedObject(UnsafeMutableRawPointer(tokenizer)) as? any FTS5Tokenizer
    else { return SQLITE_ERROR }
    return object.tokenize(
        context: context, tokenization: FTS5Tokenization(rawValue: flags),
        pText: pText, nText: nText, tokenCallback: tokenCallback)
}
