import DataModelRuntime
import DataModelStoreLayout
import Foundation
import GeneratedCompanyModel
import PostgresKit

/// The runtime cases on a PostgreSQL store, each against ``RawPostgresBaseline`` (the same work on libpq) in the
/// same run, interleaved. They need a server: the URL in `DATAMODELGEN_TEST_POSTGRES_URL`, which
/// `Scripts/with-postgres.sh` sets for the command it runs:
///
///     Scripts/with-postgres.sh swift run -c release datamodelgen-benchmarks --filter postgres
///
/// Without it they are skipped, and say so. Every store is a schema of its own in that database (dropped after).
enum PostgresBenchmarks {
    static let urlVariable = "DATAMODELGEN_TEST_POSTGRES_URL"

    static func run(_ suite: inout BenchmarkSuite) throws {
        let names = ["postgres insert", "postgres fetch", "postgres traverse", "postgres update", "postgres predicate"]
        guard names.contains(where: suite.wants) else { return }
        guard let base = ProcessInfo.processInfo.environment[urlVariable], !base.isEmpty else {
            print(
                "postgres cases skipped: no server (\(urlVariable) is not set; run the benchmarks under "
                    + "Scripts/with-postgres.sh)")
            return
        }
        let admin = try PostgresConnection(url: base)
        try admin.execute("SET client_min_messages = warning")
        let employees = suite.quick ? 20_000 : 100_000
        let departments = 100
        let updates = suite.quick ? 2_000 : 10_000
        let dateJoined = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
        let writer = DDLWriter(dialect: .postgres)
        let schema = writer.statements(for: layout) + writer.primaryKeyRowStatements(for: layout)
        var created: [String] = []
        var schemaNumber = 0
        defer { for name in created { try? admin.execute("DROP SCHEMA IF EXISTS \(name) CASCADE") } }
        /// A new empty schema and the URL whose sessions use it.
        func freshSchema() throws -> (name: String, url: String) {
            schemaNumber += 1
            let name = "bench_\(getpid())_\(schemaNumber)"
            try admin.execute("CREATE SCHEMA \(name)")
            created.append(name)
            let separator = base.contains("?") ? "&" : "?"
            return (name, base + separator + "options=-c%20search_path%3D" + name)
        }
        /// Drops every schema but the last `keep`.
        func dropOld(keeping keep: Int) {
            while created.count > keep {
                let name = created.removeFirst()
                try? admin.execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
            }
        }

        if suite.wants("postgres insert") {
            var next: (name: String, url: String)?
            var rawURL = ""
            var oursURL = ""
            let times = try suite.compare(
                prepare: {
                    dropOld(keeping: 2)
                    next = try freshSchema()
                },
                baseline: {
                    guard let target = next else { return }
                    rawURL = target.url
                    let raw = try RawPostgresBaseline(url: target.url)
                    try raw.insert(
                        schema: schema, employees: employees, departments: departments,
                        dateJoined: dateJoined.timeIntervalSinceReferenceDate)
                },
                ours: {
                    guard let target = next, let url = URL(string: target.url) else { return }
                    oursURL = target.url
                    try CompanyWorkload.insert(
                        into: .postgres(url: url), employees: employees, departments: departments,
                        dateJoined: dateJoined)
                })
            let rawCount = try RawPostgresBaseline(url: rawURL).scalar(#"SELECT COUNT(*) FROM "ZEMPLOYEEENTITY""#)
            let oursCount = try RawPostgresBaseline(url: oursURL).scalar(#"SELECT COUNT(*) FROM "ZEMPLOYEEENTITY""#)
            if rawCount != employees || oursCount != employees {
                suite.fail("postgres insert: expected \(employees) employees, raw \(rawCount), ours \(oursCount)")
            }
            suite.record(
                BenchmarkResult(
                    name: "postgres insert \(employees) + save", ours: times.ours, baseline: times.baseline,
                    target: "<= 1.5x raw libpq", note: "schema created, \(departments) departments, one transaction"))
            dropOld(keeping: 0)
        }

        // One populated store shared by the read cases: the tables and metadata made by opening a container on an
        // empty schema, the rows written by the raw side.
        let shared = try freshSchema()
        guard let sharedURL = URL(string: shared.url) else { throw BenchmarkError("bad URL \(shared.url)") }
        _ = try PersistentContainer(model: CompanyModel.model, store: .postgres(url: sharedURL))
        let raw = try RawPostgresBaseline(url: shared.url)
        try raw.insert(
            schema: [], employees: employees, departments: departments,
            dateJoined: dateJoined.timeIntervalSinceReferenceDate)
        try raw.execute("ANALYZE")
        // Opened once, like the raw side's connection; every repetition starts from a new, empty context.
        let container = try PersistentContainer(model: CompanyModel.model, store: .postgres(url: sharedURL))

        if suite.wants("postgres fetch") {
            var counts = (0, 0)
            var checksums: (Int, Int) = (0, 0)
            let times = try suite.compare(
                baseline: {
                    var sum = 0
                    let rows = try raw.fetchAll()
                    for row in rows { sum &+= Int(row.age) &+ (row.name?.utf8.count ?? 0) }
                    counts.0 = rows.count
                    checksums.0 = sum
                },
                ours: {
                    (counts.1, checksums.1) = try CompanyWorkload.fetchAndRead(container)
                })
            if counts.0 != employees || counts.1 != employees || checksums.0 != checksums.1 {
                suite.fail(
                    "postgres fetch: expected \(employees), raw \(counts.0), ours \(counts.1); "
                        + "checksums \(checksums.0), \(checksums.1)")
            }
            suite.record(
                BenchmarkResult(
                    name: "postgres fetch \(employees), read 2 attributes", ours: times.ours, baseline: times.baseline,
                    target: "<= 2x raw libpq", note: "cold context each time; text results"))
        }

        if suite.wants("postgres predicate") {
            var counts = (0, 0)
            let request = CompanyWorkload.predicateRequest()
            let path = try container.newBackgroundContext().explain(request).path
            let times = try suite.compare(
                baseline: { counts.0 = try raw.fetchFiltered().count },
                ours: { counts.1 = try container.newBackgroundContext().fetch(request).count })
            if counts.0 != counts.1 || counts.0 == 0 {
                suite.fail("postgres predicate fetch: raw \(counts.0) rows, ours \(counts.1)")
            }
            suite.record(
                BenchmarkResult(
                    name: "postgres #Predicate fetch, sorted", ours: times.ours, baseline: times.baseline,
                    target: "<= 1.5x raw libpq", note: "\(counts.1) rows; path: \(path)"))
        }

        if suite.wants("postgres traverse") {
            var counts = (0, 0)
            let times = try suite.compare(
                baseline: { counts.0 = try raw.traverseDepartments(count: departments) },
                ours: { counts.1 = try CompanyWorkload.traverse(container) })
            if counts.0 != employees || counts.1 != employees {
                suite.fail("postgres traverse: expected \(employees), raw \(counts.0), ours \(counts.1)")
            }
            suite.record(
                BenchmarkResult(
                    name: "postgres traverse department.employees", ours: times.ours, baseline: times.baseline,
                    target: "reported", note: "\(departments) departments from a cold context"))
        }

        if suite.wants("postgres update") {
            // Both sides change the same rows (the first `updates` by name) and bump their `Z_OPT`.
            let versionQuery = #"SELECT SUM("Z_OPT")::bigint FROM "ZEMPLOYEEENTITY""#
            let versionsBefore = try raw.scalar(versionQuery)
            var runs = 0
            var lastAge: Int16 = 0
            let times = try suite.compare(
                baseline: {
                    runs += 1
                    lastAge = 40
                    try raw.update(count: updates, age: 40)
                },
                ours: {
                    runs += 1
                    lastAge = 41
                    try CompanyWorkload.update(container, count: updates, age: 41)
                })
            let versionsAdded = try raw.scalar(versionQuery) - versionsBefore
            let changed = try raw.scalar(
                #"SELECT COUNT(*) FROM (SELECT "ZAGE" FROM "ZEMPLOYEEENTITY" ORDER BY "ZNAME" COLLATE "C" LIMIT "#
                    + "\(updates)) AS first WHERE \"ZAGE\" = \(lastAge)")
            if versionsAdded != Int64(runs * updates) || changed != updates {
                suite.fail(
                    "postgres update: \(runs) runs of \(updates) rows moved Z_OPT by \(versionsAdded), "
                        + "\(changed) of the rows have age \(lastAge)")
            }
            suite.record(
                BenchmarkResult(
                    name: "postgres update \(updates) + save", ours: times.ours, baseline: times.baseline,
                    target: "<= 1.5x raw libpq", note: "both read the rows by name first"))
        }
    }
}
