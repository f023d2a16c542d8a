import Foundation

/// What gives ``Database/transactionDate`` its value: the moment a transaction starts.
///
/// ```swift
/// var config = Configuration()
/// // In tests, a fixed date:
/// config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 0) }
/// let dbQueue = try DatabaseQueue(configuration: config)
/// ```
public protocol TransactionClock: Sendable {
    /// The date of the current transaction. See ``Configuration/transactionClock`` for
    /// when it is called.
    func now(_ db: Database) throws -> Date
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The system's clock: the real time at which each transaction starts.
    public static var `default`: Self { DefaultTransactionClock() }

    /// The system's clock: the same as ``TransactionClock/default``.
    public static var realTime: Self { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that asks `now` for the date of each transaction.
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}

/// The system's clock: ``TransactionClock/default`` and ``TransactionClock/realTime``.
public struct DefaultTransactionClock: TransactionClock {
    public init() {}

    /// The current date.
    public func now(_ db: Database) throws -> Date { Date() }
}

/// A clock made of a closure: ``TransactionClock/custom(_:)``.
public struct CustomTransactionClock: TransactionClock {
    private let nowFunction: @Sendable (Database) throws -> Date

    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        self.nowFunction = now
    }

    public func now(_ db: Database) throws -> Date {
        try nowFunction(db)
    }
}
