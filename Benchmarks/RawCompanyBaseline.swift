import CSQLite
import Foundation

/// The physical limit for the runtime cases: the same SQL work written directly on the SQLite C API,
/// with prepared statements and one transaction, against the `Company` store layout.
final class RawCompanyBaseline {
    /// A row read back, the least an object-mapping layer could materialize.
    struct Employee {
        var pk: Int64
        var name: String?
        var age: Int16
        var dateJoined: Double?
        var business: Int64
        var department: Int64
    }

    private var database: OpaquePointer?

    init(path: String, schema: [String]) throws {
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchmarkError("cannot open \(path)")
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        for statement in schema { try execute(statement) }
    }

    deinit { sqlite3_close_v2(database) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError("SQL failed: \(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw BenchmarkError("prepare failed: \(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
        return statement
    }

    private func step(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw BenchmarkError("step failed: \(String(cString: sqlite3_errmsg(database)))")
        }
        sqlite3_reset(statement)
    }

    /// Inserts `departments` departments and `employees` employees, each linked to one department and
    /// to one business, in one transaction, and records the primary keys handed out (as Core Data does).
    func insert(employees: Int, departments: Int, dateJoined: Double) throws {
        try execute("BEGIN IMMEDIATE")
        let business = try prepare(
            #"INSERT INTO "ZBUSINESSENTITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES (?, 1, 1, ?)"#)
        let department = try prepare(
            #"INSERT INTO "ZDEPARTMENTENTITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES (?, 2, 1, ?)"#)
        let employee = try prepare(
            #"INSERT INTO "ZEMPLOYEEENTITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZAGE", "ZBUSINESS", "ZDEPARTMENT", "ZDATEJOINED", "ZNAME") VALUES (?, 3, 1, ?, 1, ?, ?, ?)"#
        )
        let maximum = try prepare(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = ? WHERE "Z_ENT" = ?"#)
        defer {
            for statement in [business, department, employee, maximum] { sqlite3_finalize(statement) }
        }
        sqlite3_bind_int64(business, 1, 1)
        sqlite3_bind_text(business, 2, "Acme", -1, datamodelgen_sqlite_transient())
        try step(business)
        for index in 1...departments {
            sqlite3_bind_int64(department, 1, Int64(index))
            sqlite3_bind_text(department, 2, "Department \(index)", -1, datamodelgen_sqlite_transient())
            try step(department)
        }
        for index in 1...employees {
            sqlite3_bind_int64(employee, 1, Int64(index))
            sqlite3_bind_int(employee, 2, Int32(BenchmarkData.age(index)))
            sqlite3_bind_int64(employee, 3, Int64(index % departments + 1))
            sqlite3_bind_double(employee, 4, dateJoined)
            let name = BenchmarkData.name(index)
            sqlite3_bind_text(employee, 5, name, -1, datamodelgen_sqlite_transient())
            try step(employee)
        }
        for (entity, count) in [(1, 1), (2, departments), (3, employees)] {
            sqlite3_bind_int64(maximum, 1, Int64(count))
            sqlite3_bind_int64(maximum, 2, Int64(entity))
            try step(maximum)
        }
        try execute("COMMIT")
    }

    private static let employeeColumns =
        #"SELECT "Z_PK", "ZNAME", "ZAGE", "ZDATEJOINED", "ZBUSINESS", "ZDEPARTMENT" FROM "ZEMPLOYEEENTITY""#

    private func read(_ statement: OpaquePointer) -> [Employee] {
        var rows: [Employee] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let name = sqlite3_column_text(statement, 1).map { String(cString: $0) }
            let date = sqlite3_column_type(statement, 3) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 3)
            rows.append(
                Employee(
                    pk: sqlite3_column_int64(statement, 0), name: name, age: Int16(sqlite3_column_int(statement, 2)),
                    dateJoined: date, business: sqlite3_column_int64(statement, 4),
                    department: sqlite3_column_int64(statement, 5)))
        }
        sqlite3_reset(statement)
        return rows
    }

    /// Reads `name` and `age` of every row, as ``CompanyWorkload/readTwoAttributes(_:)`` reads them of objects.
    @inline(never)
    static func readTwoAttributes(_ rows: [Employee]) -> Int {
        var total = 0
        for row in rows {
            total &+= Int(row.age) &+ (row.name?.utf8.count ?? 0)
        }
        return total
    }

    /// Every employee, materialized.
    func fetchAll() throws -> [Employee] {
        let statement = try prepare(Self.employeeColumns)
        defer { sqlite3_finalize(statement) }
        return read(statement)
    }

    /// The first `count` employees by primary key (the memory probe's warm-up).
    func fetchFirst(_ count: Int) throws -> [Employee] {
        let statement = try prepare(Self.employeeColumns + #" ORDER BY "Z_PK" LIMIT ?"#)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, Int64(count))
        return read(statement)
    }

    /// `age > 30 && name.starts(with: "A")` sorted by name, in SQL.
    func fetchFiltered() throws -> [Employee] {
        let statement = try prepare(
            Self.employeeColumns + #" WHERE "ZAGE" > ? AND substr("ZNAME", 1, 1) = ? ORDER BY "ZNAME""#)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int(statement, 1, 30)
        sqlite3_bind_text(statement, 2, "A", -1, datamodelgen_sqlite_transient())
        return read(statement)
    }

    /// Each department's employees, one query per department through a prepared statement.
    func traverseDepartments(count: Int) throws -> Int {
        let statement = try prepare(Self.employeeColumns + #" WHERE "ZDEPARTMENT" = ?"#)
        defer { sqlite3_finalize(statement) }
        var total = 0
        for department in 1...count {
            sqlite3_bind_int64(statement, 1, Int64(department))
            total += read(statement).count
        }
        return total
    }

    /// Copies the write-ahead log into the database file and empties it. A writing case runs this before each
    /// side's run: the log is shared by both sides' connections, and the commit that takes it past SQLite's
    /// automatic checkpoint (1,000 pages) copies it, so without this the side that runs second would pay for
    /// copying the other side's pages too.
    func checkpoint() throws {
        if try scalar("PRAGMA wal_checkpoint(TRUNCATE)", argument: nil) != 0 {
            throw BenchmarkError("the checkpoint could not finish: another connection is reading or writing")
        }
    }

    /// The sum of every employee's `Z_OPT`: it grows by one for each row an update changes.
    func totalVersion() throws -> Int64 {
        try scalar(#"SELECT SUM("Z_OPT") FROM "ZEMPLOYEEENTITY""#, argument: nil)
    }

    /// How many of the first `count` employees by name have `age`.
    func countFirstByName(_ count: Int, age: Int16) throws -> Int {
        Int(
            try scalar(
                #"SELECT COUNT(*) FROM (SELECT "ZAGE" FROM "ZEMPLOYEEENTITY" ORDER BY "ZNAME" LIMIT ?) WHERE "ZAGE" = "#
                    + String(age), argument: Int64(count)))
    }

    private func scalar(_ sql: String, argument: Int64?) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        if let argument { sqlite3_bind_int64(statement, 1, argument) }
        guard sqlite3_step(statement) == SQLITE_ROW else {
            throw BenchmarkError("no row: \(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
        return sqlite3_column_int64(statement, 0)
    }

    /// Reads the first `count` employees by name, then sets `age` on each and bumps its `Z_OPT`, in one
    /// transaction: the same SQL work as fetching the objects, changing them and saving.
    func update(count: Int, age: Int16) throws {
        let select = try prepare(Self.employeeColumns + #" ORDER BY "ZNAME" LIMIT ?"#)
        defer { sqlite3_finalize(select) }
        sqlite3_bind_int64(select, 1, Int64(count))
        let rows = read(select)
        try execute("BEGIN IMMEDIATE")
        let statement = try prepare(
            #"UPDATE "ZEMPLOYEEENTITY" SET "ZAGE" = ?, "Z_OPT" = "Z_OPT" + 1 WHERE "Z_PK" = ?"#)
        defer { sqlite3_finalize(statement) }
        for row in rows {
            sqlite3_bind_int(statement, 1, Int32(age))
            sqlite3_bind_int64(statement, 2, row.pk)
            try step(statement)
        }
        try execute("COMMIT")
    }
}

/// Deterministic data shared by both sides of every runtime case.
enum BenchmarkData {
    static let names = ["Ada", "Alan", "Barbara", "Claude", "Edsger", "Grace", "Ken", "Linus", "Margaret", "Niklaus"]

    static func name(_ index: Int) -> String { names[index % names.count] + " \(index)" }

    static func age(_ index: Int) -> Int16 { Int16(20 + index % 45) }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
