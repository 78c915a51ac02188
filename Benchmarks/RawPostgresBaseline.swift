import CLibPQ
import Foundation
import PostgresKit

/// The physical limit for the runtime cases on PostgreSQL: the same SQL work written directly on libpq, as a good C
/// programmer writes it against the `Company` store layout.
///
/// Statements are prepared once per connection with their parameter types; parameters go in binary (integers,
/// timestamps) or text (names), as the runtime sends them; results come back in text, libpq's default, as the
/// runtime reads them. Inserts are multi-row `INSERT … VALUES (…), (…)` of 512 rows, sent in libpq's pipeline mode
/// (one sync at the end), in one transaction; updates are conditional on `Z_OPT` like the runtime's (a row another
/// process changed would be a conflict: each statement's row count is checked), pipelined.
final class RawPostgresBaseline {
    /// A row read back, the least an object-mapping layer could materialize.
    struct Employee {
        var pk: Int64
        var name: String?
        var age: Int16
        var dateJoined: Double?
        var business: Int64
        var department: Int64
        var version: Int64
    }

    private let connection: OpaquePointer
    /// Rows per multi-row `INSERT`: the runtime's largest batch.
    static let batchRows = 512

    init(url: String) throws {
        guard let connection = PQconnectdb(url) else { throw BenchmarkError("libpq: out of memory") }
        self.connection = connection
        guard PQstatus(connection) == CONNECTION_OK else {
            throw BenchmarkError("cannot connect: \(String(cString: PQerrorMessage(connection)))")
        }
        try execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3")
    }

    deinit { PQfinish(connection) }

    func execute(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchmarkError("SQL failed: \(sql.prefix(200)): \(String(cString: PQerrorMessage(connection)))")
        }
    }

    private func prepare(_ name: String, _ sql: String, types: [UInt32]) throws {
        var types = types
        let result = PQprepare(connection, name, sql, Int32(types.count), &types)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw BenchmarkError("prepare failed: \(String(cString: PQerrorMessage(connection)))")
        }
    }

    /// Parameter values laid out in one buffer, as libpq takes them.
    private struct Parameters {
        var storage: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []

        init(capacity: Int) {
            storage.reserveCapacity(capacity * 12)
            offsets.reserveCapacity(capacity)
            lengths.reserveCapacity(capacity)
            formats.reserveCapacity(capacity)
        }

        mutating func removeAll() {
            storage.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
            formats.removeAll(keepingCapacity: true)
        }

        mutating func int(_ value: Int64, bytes: Int) {
            offsets.append(storage.count)
            var shift = (bytes - 1) * 8
            while shift >= 0 {
                storage.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
                shift -= 8
            }
            lengths.append(Int32(bytes))
            formats.append(1)
        }

        /// A `timestamptz`: microseconds since 2000-01-01 UTC.
        mutating func timestamp(_ secondsSince2001: Double) {
            int(Int64(((secondsSince2001 + 31_622_400) * 1_000_000).rounded()), bytes: 8)
        }

        mutating func text(_ value: String) {
            offsets.append(storage.count)
            storage.append(contentsOf: value.utf8)
            lengths.append(Int32(storage.count - (offsets.last ?? 0)))
            storage.append(0)
            formats.append(0)
        }

        /// Calls libpq with the arrays.
        func send(
            _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> Int32
        )
            -> Int32
        {
            storage.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    let base = characters.baseAddress
                    let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in base.map { $0 + offset } }
                    return pointers.withUnsafeBufferPointer { pointers in
                        lengths.withUnsafeBufferPointer { lengths in
                            formats.withUnsafeBufferPointer { formats in
                                guard let values = pointers.baseAddress, let lengths = lengths.baseAddress,
                                    let formats = formats.baseAddress
                                else { return 0 }
                                return body(Int32(offsets.count), values, lengths, formats)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Creates the schema (when `schema` is given: the PostgreSQL DDL) and inserts `departments` departments and
    /// `employees` employees, each linked to one department and to one business, in one transaction, and records
    /// the primary keys handed out (as the runtime does).
    func insert(schema: [String], employees: Int, departments: Int, dateJoined: Double) throws {
        if !schema.isEmpty { try execute(schema.joined(separator: ";\n")) }
        try execute("BEGIN")
        try execute(#"INSERT INTO "ZBUSINESSENTITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES (1, 1, 1, 'Acme')"#)
        var departmentRows: [String] = []
        var parameters = Parameters(capacity: Self.batchRows * 5)
        for index in 1...departments {
            departmentRows.append("($\(index * 2 - 1), 2, 1, $\(index * 2))")
            parameters.int(Int64(index), bytes: 8)
            parameters.text("Department \(index)")
        }
        try prepare(
            "departments",
            #"INSERT INTO "ZDEPARTMENTENTITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES "#
                + departmentRows.joined(separator: ", "),
            types: Array(repeating: [PostgresType.int8, PostgresType.text], count: departments).flatMap { $0 })
        try check(
            parameters.send { count, values, lengths, formats in
                let result = PQexecPrepared(connection, "departments", count, values, lengths, formats, 0)
                defer { PQclear(result) }
                return PQresultStatus(result) == PGRES_COMMAND_OK ? 1 : 0
            })

        // Employees: 512-row statements, and one for the remainder, pipelined.
        var prepared: Set<Int> = []
        func statement(rows: Int) throws -> String {
            let name = "employees\(rows)"
            if prepared.insert(rows).inserted {
                var tuples: [String] = []
                for row in 0..<rows {
                    let base = row * 5
                    tuples.append("($\(base + 1), 3, 1, $\(base + 2), 1, $\(base + 3), $\(base + 4), $\(base + 5))")
                }
                try prepare(
                    name,
                    #"INSERT INTO "ZEMPLOYEEENTITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZAGE", "ZBUSINESS", "ZDEPARTMENT", "ZDATEJOINED", "ZNAME") VALUES "#
                        + tuples.joined(separator: ", "),
                    types: Array(
                        repeating: [
                            PostgresType.int8, PostgresType.int2, PostgresType.int8, PostgresType.timestamptz,
                            PostgresType.text,
                        ], count: rows
                    ).flatMap { $0 })
            }
            return name
        }
        let full = try statement(rows: Self.batchRows)
        let remainder = employees % Self.batchRows
        let last = remainder > 0 ? try statement(rows: remainder) : full
        guard PQenterPipelineMode(connection) == 1 else { throw BenchmarkError("cannot enter pipeline mode") }
        var sent = 0
        var index = 1
        while index <= employees {
            let rows = min(Self.batchRows, employees - index + 1)
            parameters.removeAll()
            for employee in index..<(index + rows) {
                parameters.int(Int64(employee), bytes: 8)
                parameters.int(Int64(BenchmarkData.age(employee)), bytes: 2)
                parameters.int(Int64(employee % departments + 1), bytes: 8)
                parameters.timestamp(dateJoined)
                parameters.text(BenchmarkData.name(employee))
            }
            let name = rows == Self.batchRows ? full : last
            try check(
                parameters.send { count, values, lengths, formats in
                    PQsendQueryPrepared(connection, name, count, values, lengths, formats, 0)
                })
            sent += 1
            index += rows
        }
        _ = try pipelineResults(sent)
        try execute(
            #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = CASE "Z_ENT" WHEN 1 THEN 1 WHEN 2 THEN "#
                + "\(departments) WHEN 3 THEN \(employees) END WHERE \"Z_ENT\" IN (1, 2, 3)")
        try execute("COMMIT")
    }

    private func check(_ status: Int32) throws {
        guard status == 1 else { throw BenchmarkError("libpq: \(String(cString: PQerrorMessage(connection)))") }
    }

    /// Sends a sync point, reads the results of `count` pipelined statements and leaves pipeline mode; returns the
    /// rows each changed.
    private func pipelineResults(_ count: Int) throws -> [Int] {
        try check(PQpipelineSync(connection))
        var counts: [Int] = []
        counts.reserveCapacity(count)
        var failure: String?
        for _ in 0..<count {
            guard let result = PQgetResult(connection) else { throw BenchmarkError("pipeline: missing result") }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                counts.append(Int(strtol(PQcmdTuples(result), nil, 10)))
            } else if failure == nil {
                failure = String(cString: PQresultErrorMessage(result))
            }
            PQclear(result)
            while let extra = PQgetResult(connection) { PQclear(extra) }
        }
        if let sync = PQgetResult(connection) { PQclear(sync) }
        PQexitPipelineMode(connection)
        if let failure { throw BenchmarkError("pipeline: \(failure)") }
        return counts
    }

    private static let employeeColumns =
        #"SELECT "Z_PK", "ZNAME", "ZAGE", "ZDATEJOINED", "ZBUSINESS", "ZDEPARTMENT", "Z_OPT" FROM "ZEMPLOYEEENTITY""#

    @inline(__always)
    private static func integer(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Int64 {
        guard let text = PQgetvalue(result, row, column) else { return 0 }
        return strtoll(text, nil, 10)
    }

    /// A `timestamptz` as PostgreSQL prints it in UTC (`2023-03-08 12:26:40+00`, maybe with `.ffffff`), in
    /// seconds since 2001, read in place.
    @inline(__always)
    private static func timestamp(_ text: UnsafePointer<CChar>, length: Int) -> Double? {
        guard length >= 22 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int64 {
            var value: Int64 = 0
            for index in start..<(start + count) { value = value * 10 + Int64(UInt8(bitPattern: text[index]) &- 48) }
            return value
        }
        let days = daysFromCivil(digits(0, 4), digits(5, 2), digits(8, 2))
        var seconds = Double(days * 86_400 + digits(11, 2) * 3600 + digits(14, 2) * 60 + digits(17, 2))
        if text[19] == 46 {  // '.'
            var scale = 0.1
            var index = 20
            while index < length, text[index] >= 48, text[index] <= 57 {
                seconds += Double(text[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        return seconds - 978_307_200
    }

    /// Days since 1970-01-01 of a Gregorian date.
    private static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    private func read(_ result: OpaquePointer) -> [Employee] {
        let count = PQntuples(result)
        var rows: [Employee] = []
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            let name =
                PQgetisnull(result, row, 1) != 0
                ? nil
                : String(
                    decoding: UnsafeRawBufferPointer(
                        start: PQgetvalue(result, row, 1), count: Int(PQgetlength(result, row, 1))),
                    as: UTF8.self)
            let date: Double? =
                PQgetisnull(result, row, 3) != 0
                ? nil
                : PQgetvalue(result, row, 3).flatMap {
                    Self.timestamp($0, length: Int(PQgetlength(result, row, 3)))
                }
            rows.append(
                Employee(
                    pk: Self.integer(result, row, 0), name: name, age: Int16(Self.integer(result, row, 2)),
                    dateJoined: date, business: Self.integer(result, row, 4),
                    department: Self.integer(result, row, 5), version: Self.integer(result, row, 6)))
        }
        return rows
    }

    private func query(
        _ name: String, _ sql: String, types: [UInt32], _ parameters: Parameters = Parameters(capacity: 0)
    )
        throws -> [Employee]
    {
        if !preparedQueries.contains(name) {
            try prepare(name, sql, types: types)
            preparedQueries.insert(name)
        }
        var rows: [Employee] = []
        var failure: String?
        let run: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> Void =
            {
                count, values, lengths, formats in
                let result = PQexecPrepared(self.connection, name, count, values, lengths, formats, 0)
                defer { PQclear(result) }
                if let result, PQresultStatus(result) == PGRES_TUPLES_OK {
                    rows = self.read(result)
                } else {
                    failure = String(cString: PQerrorMessage(self.connection))
                }
            }
        if parameters.offsets.isEmpty {
            run(0, nil, nil, nil)
        } else {
            _ = parameters.send { count, values, lengths, formats in
                run(count, values, lengths, formats)
                return 1
            }
        }
        if let failure { throw BenchmarkError("query failed: \(failure)") }
        return rows
    }

    private var preparedQueries: Set<String> = []

    /// Every employee, materialized.
    func fetchAll() throws -> [Employee] {
        try query("all", Self.employeeColumns, types: [])
    }

    /// `age > 30 && name.starts(with: "A")` sorted by name (code-point order), in SQL.
    func fetchFiltered() throws -> [Employee] {
        var parameters = Parameters(capacity: 2)
        parameters.int(30, bytes: 2)
        parameters.text("A")
        return try query(
            "filtered",
            Self.employeeColumns + #" WHERE "ZAGE" > $1 AND starts_with("ZNAME", $2) ORDER BY "ZNAME" COLLATE "C""#,
            types: [PostgresType.int2, PostgresType.text], parameters)
    }

    /// Each department's employees, one query per department through a prepared statement.
    func traverseDepartments(count: Int) throws -> Int {
        var total = 0
        var parameters = Parameters(capacity: 1)
        for department in 1...count {
            parameters.removeAll()
            parameters.int(Int64(department), bytes: 8)
            total += try query(
                "department", Self.employeeColumns + #" WHERE "ZDEPARTMENT" = $1"#, types: [PostgresType.int8],
                parameters
            ).count
        }
        return total
    }

    /// Reads the first `count` employees by name, then sets `age` on each and bumps its `Z_OPT` where it is still
    /// the version read (each row's count checked), pipelined in one transaction: the same SQL work as fetching the
    /// objects, changing them and saving.
    func update(count: Int, age: Int16) throws {
        var limit = Parameters(capacity: 1)
        limit.int(Int64(count), bytes: 8)
        let rows = try query(
            "first", Self.employeeColumns + #" ORDER BY "ZNAME" COLLATE "C" LIMIT $1"#, types: [PostgresType.int8],
            limit)
        try execute("BEGIN")
        if !preparedQueries.contains("update") {
            try prepare(
                "update",
                #"UPDATE "ZEMPLOYEEENTITY" SET "Z_OPT" = $1, "ZAGE" = $2 WHERE "Z_PK" = $3 AND "Z_OPT" = $4"#,
                types: [PostgresType.int4, PostgresType.int2, PostgresType.int8, PostgresType.int4])
            preparedQueries.insert("update")
        }
        guard PQenterPipelineMode(connection) == 1 else { throw BenchmarkError("cannot enter pipeline mode") }
        var parameters = Parameters(capacity: 4)
        var sent = 0
        var counts: [Int] = []
        for row in rows {
            parameters.removeAll()
            parameters.int(row.version + 1, bytes: 4)
            parameters.int(Int64(age), bytes: 2)
            parameters.int(row.pk, bytes: 8)
            parameters.int(row.version, bytes: 4)
            try check(
                parameters.send { count, values, lengths, formats in
                    PQsendQueryPrepared(connection, "update", count, values, lengths, formats, 0)
                })
            sent += 1
            // A sync point every 1,000 statements, as the runtime's pipeline does, so replies never pile up.
            if sent == 1_000 {
                counts += try pipelineResults(sent)
                sent = 0
                guard PQenterPipelineMode(connection) == 1 else { throw BenchmarkError("cannot enter pipeline mode") }
            }
        }
        counts += try pipelineResults(sent)
        guard counts.allSatisfy({ $0 == 1 }) else { throw BenchmarkError("update: a row changed meanwhile") }
        try execute("COMMIT")
    }

    /// One integer: the first column of the first row.
    func scalar(_ sql: String) throws -> Int64 {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) > 0 else {
            throw BenchmarkError("no row: \(sql): \(String(cString: PQerrorMessage(connection)))")
        }
        return Self.integer(result, 0, 0)
    }
}
