import Foundation

/// The date of a connection's current transaction (see ``Database/transactionDate``): set
/// when a statement (`BEGIN`, `SAVEPOINT`) opens the transaction, with the system's clock;
/// a custom clock is asked at the first read. Nil outside of a transaction.
struct TransactionDateState {
    /// Whether `configuration.transactionClock` is the system's: known once, since a type
    /// check of the existential has a cost at each `BEGIN` and `COMMIT`.
    let usesSystemClock: Bool
    /// The date of the current transaction, or the error of a custom clock.
    var date: Result<Date, any Error>?
    /// Whether the transaction statement that runs started outside of a transaction.
    private var statementStartedOutsideOfTransaction = false

    init(usesSystemClock: Bool) {
        self.usesSystemClock = usesSystemClock
    }

    /// A statement that begins or ends a transaction or a savepoint starts.
    mutating func transactionStatementWillStart(insideTransaction: Bool) {
        statementStartedOutsideOfTransaction = !insideTransaction
    }

    /// That statement ran: a transaction it opened gets its date; one it ended loses it.
    mutating func transactionStatementDidRun(insideTransaction: Bool, now: () -> Date) {
        if !insideTransaction {
            date = nil
        } else if statementStartedOutsideOfTransaction || date == nil {
            // (A custom clock is asked later: its closure may use the database, which is
            // in the middle of the statement that opened the transaction.)
            date = usesSystemClock ? .success(now()) : nil
        }
    }
}

extension Database {
    /// Keeps the transaction's date after a transaction statement ran.
    @inline(never)
    func transactionStatementDidRun() {
        let isInsideTransaction = isInsideTransaction
        transactionDateState.transactionStatementDidRun(insideTransaction: isInsideTransaction, now: Date.init)
        if !isInsideTransaction { noteTransactionEndInsideBlock() }
    }

    /// The date of the current transaction: the same at any point of a transaction, set
    /// when `BEGIN` (or a savepoint outside of a transaction) opens it. Outside of a
    /// transaction, the current date, anew at each call. The date comes from
    /// ``Configuration/transactionClock``; an error of a custom clock is thrown here, at
    /// each read in the transaction.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     let date = try db.transactionDate   // the same for every record of the transaction
    /// }
    /// ```
    public var transactionDate: Date {
        get throws {
            try checkOpen()
            guard isInsideTransaction else { return try configuration.transactionClock.now(self) }
            if let date = transactionDateState.date { return try date.get() }
            let date = Result { try configuration.transactionClock.now(self) }
            // (The clock may have ended the transaction: its date is then not kept.)
            if isInsideTransaction { transactionDateState.date = date }
            return try date.get()
        }
    }
}
