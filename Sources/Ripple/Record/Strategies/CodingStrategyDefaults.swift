import Foundation

extension FetchableRecord {
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    // (Without the record's `userInfo`: Foundation's JSON coders take only `Sendable` values.)
    public static func databaseJSONDecoder(for column: String) -> JSONDecoder { .databaseDefault() }

    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy { .deferredToData }

    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .deferredToDate }

    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }
}

extension EncodableRecord {
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    public static func databaseJSONEncoder(for column: String) -> JSONEncoder { .databaseDefault() }

    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .deferredToData }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .deferredToDate }

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .deferredToUUID }

    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }
}

extension JSONDecoder {
    /// The decoder of JSON columns when no record says otherwise: GRDB's settings, so that
    /// a database written by either reads the same.
    static func databaseDefault() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        return decoder
    }
}

extension JSONEncoder {
    /// The encoder of JSON columns when no record says otherwise: GRDB's settings, keys
    /// sorted so that equal values store equal text.
    static func databaseDefault() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}
