import CSQLite

/// How a transaction takes its locks (`BEGIN DEFERRED | IMMEDIATE | EXCLUSIVE`).
public enum TransactionKind: String, Sendable, Hashable {
    /// Locks are taken on first read or write.
    case deferred = "DEFERRED"
    /// The write lock is taken at once, so a save fails early with `SQLITE_BUSY` instead of
    /// half-way through.
    case immediate = "IMMEDIATE"
    /// Like `immediate`; in WAL mode the same, otherwise readers are excluded too.
    case exclusive = "EXCLUSIVE"
}

extension Database {
    /// Runs `body` in a transaction: committed when `body` returns, rolled back when it throws.
    ///
    /// ```swift
    /// try db.transaction {
    ///     try db.execute(sql: "INSERT INTO T VALUES (1)", arguments: [])
    /// }
    /// ```
    ///
    /// - Parameter kind: how the transaction begins; ``TransactionKind/immediate`` by default.
    /// - Returns: what `body` returns.
    /// - Throws: the error of `body` (after rolling back), or an ``SQLiteError`` from `BEGIN`
    ///   (e.g. ``ResultCode/busy``, or an error when a transaction is already open) or `COMMIT`
    ///   (after rolling back).
    public func transaction<Value>(
        _ kind: TransactionKind = .immediate, _ body: () throws -> Value
    ) throws -> Value {
        try runCached("BEGIN \(kind.rawValue) TRANSACTION")
        let value: Value
        do {
            value = try body()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        do {
            try runCached("COMMIT TRANSACTION")
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        return value
    }

    /// Runs `body` inside a savepoint: released when `body` returns, rolled back to (and released)
    /// when it throws. Savepoints nest, inside or outside a transaction.
    ///
    /// - Parameter name: the savepoint's name; any text, it is quoted.
    public func savepoint<Value>(_ name: String = "sqlitekit", _ body: () throws -> Value) throws -> Value {
        let quoted = "\"" + name.replacingAll("\"", with: "\"\"") + "\""
        try runCached("SAVEPOINT \(quoted)")
        let value: Value
        do {
            value = try body()
        } catch {
            try? runCached("ROLLBACK TRANSACTION TO SAVEPOINT \(quoted)")
            try? runCached("RELEASE SAVEPOINT \(quoted)")
            throw error
        }
        try runCached("RELEASE SAVEPOINT \(quoted)")
        return value
    }

    /// Rolls back the open transaction, if any, ignoring errors.
    public func rollbackIgnoringErrors() {
        guard isInTransaction else { return }
        try? runCached("ROLLBACK TRANSACTION")
    }

    private func runCached(_ sql: String) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        defer { statement.resetIgnoringErrors() }
        try statement.run()
    }
}

extension String {
    /// The string with every `target` replaced by `replacement` (no Foundation needed).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
