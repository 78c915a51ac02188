import DataModelRuntime
import DataModelStoreLayout
import Foundation
import GeneratedCompanyModel

/// Runtime cases on the `Company` model with a SQLite file store, each against ``RawCompanyBaseline``.
enum RuntimeBenchmarks {
    static func run(_ suite: inout BenchmarkSuite) throws {
        let employees = suite.quick ? 20_000 : 100_000
        let departments = 100
        let updates = suite.quick ? 2_000 : 10_000
        let work = suite.workRoot().appendingPathComponent("datamodelgen-runtime-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
        let schema = layout.ddlStatements() + layout.primaryKeyRowStatements()
        let dateJoined = Date(timeIntervalSinceReferenceDate: 700_000_000)
        var run = 0
        func freshPath() -> String {
            run += 1
            return work.appendingPathComponent("store-\(run).sqlite").path
        }

        // Insert: a fresh store per repetition on both sides.
        if suite.wants("insert") {
            // Each side remembers its last store; the rows are counted after the timing, outside it.
            var rawPath = ""
            var oursPath = ""
            let times = try suite.compare(
                baseline: {
                    rawPath = freshPath()
                    let raw = try RawCompanyBaseline(path: rawPath, schema: schema)
                    try raw.insert(
                        employees: employees, departments: departments,
                        dateJoined: dateJoined.timeIntervalSinceReferenceDate)
                },
                ours: {
                    oursPath = freshPath()
                    try CompanyWorkload.insert(
                        into: .sqlite(at: URL(fileURLWithPath: oursPath)), employees: employees,
                        departments: departments, dateJoined: dateJoined)
                })
            let rawCount = try RawCompanyBaseline(path: rawPath, schema: []).fetchAll().count
            let oursCount = try RawCompanyBaseline(path: oursPath, schema: []).fetchAll().count
            if rawCount != employees || oursCount != employees {
                suite.fail("insert: expected \(employees) employees, raw \(rawCount), ours \(oursCount)")
            }
            suite.record(
                BenchmarkResult(
                    name: "insert \(employees) employees + save", ours: times.ours, baseline: times.baseline,
                    target: "<= 1.2x raw SQLite", note: "\(departments) departments, one transaction"))
        }

        // One populated store shared by the read cases (written once by the raw side).
        let sharedPath = freshPath()
        let raw = try RawCompanyBaseline(path: sharedPath, schema: schema)
        try raw.insert(
            employees: employees, departments: departments, dateJoined: dateJoined.timeIntervalSinceReferenceDate)
        // Opened once, like the raw side's connection; every repetition starts from a new, empty context.
        let container = try PersistentContainer(
            model: CompanyModel.model, store: .sqlite(at: URL(fileURLWithPath: sharedPath)))

        // Both sides read two attributes of every fetched row: a fetch that deferred its decoding to the first
        // access pays it inside the measurement.
        if suite.wants("fetch") {
            var counts = (0, 0)
            var sums = (0, 0)
            let times = try suite.compare(
                baseline: {
                    let rows = try raw.fetchAll()
                    counts.0 = rows.count
                    sums.0 = RawCompanyBaseline.readTwoAttributes(rows)
                },
                ours: {
                    (counts.1, sums.1) = try CompanyWorkload.fetchAndRead(container)
                })
            if counts.0 != employees || counts.1 != employees || sums.0 != sums.1 {
                suite.fail(
                    "fetch all: expected \(employees), raw \(counts.0) (sum \(sums.0)), ours \(counts.1) (sum \(sums.1))"
                )
            }
            suite.record(
                BenchmarkResult(
                    name: "fetch \(employees) into objects, read 2 attributes", ours: times.ours,
                    baseline: times.baseline, target: "<= 1.3x raw SQLite",
                    note: "cold context each time; name and age of every object"))
        }

        if suite.wants("traverse") {
            var counts = (0, 0)
            let times = try suite.compare(
                baseline: { counts.0 = try raw.traverseDepartments(count: departments) },
                ours: { counts.1 = try CompanyWorkload.traverse(container) })
            if counts.0 != employees || counts.1 != employees {
                suite.fail("traverse: expected \(employees), raw \(counts.0), ours \(counts.1)")
            }
            suite.record(
                BenchmarkResult(
                    name: "traverse department.employees", ours: times.ours, baseline: times.baseline,
                    target: "<= 1.2x raw SQLite", note: "\(departments) departments from a cold context"))
        }

        if suite.wants("update") {
            // Both sides change the same rows (the first `updates` by name) and bump their `Z_OPT`: each run adds
            // `updates` to the total, and the rows end with the age the last side set.
            let versionsBefore = try raw.totalVersion()
            var runs = 0
            var lastAge: Int16 = 0
            let times = try suite.compare(
                // Each side's run starts from an empty write-ahead log (see `checkpoint()`).
                prepare: { try raw.checkpoint() },
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
            let versionsAdded = try raw.totalVersion() - versionsBefore
            let changed = try raw.countFirstByName(updates, age: lastAge)
            if versionsAdded != Int64(runs * updates) || changed != updates {
                suite.fail(
                    "update: \(runs) runs of \(updates) rows moved Z_OPT by \(versionsAdded), "
                        + "\(changed) of the rows have age \(lastAge)")
            }
            suite.record(
                BenchmarkResult(
                    name: "update \(updates) objects + save", ours: times.ours, baseline: times.baseline,
                    target: "<= 1.3x raw SQLite", note: "both read the rows by name first"))
        }

        if suite.wants("memory") {
            try MemoryProbe.measure(&suite, path: sharedPath, expected: employees)
        }

        if suite.wants("predicate") {
            var counts = (0, 0)
            let request = CompanyWorkload.predicateRequest()
            let path = try container.newBackgroundContext().explain(request).path
            let times = try suite.compare(
                baseline: { counts.0 = try raw.fetchFiltered().count },
                ours: { counts.1 = try container.newBackgroundContext().fetch(request).count })
            if counts.0 != counts.1 || counts.0 == 0 {
                suite.fail("predicate fetch: raw \(counts.0) rows, ours \(counts.1)")
            }
            suite.record(
                BenchmarkResult(
                    name: "fetch with #Predicate, sorted", ours: times.ours, baseline: times.baseline,
                    target: "<= 1.2x raw SQLite", note: "\(counts.1) rows; path: \(path)"))
        }

        // The same fetch written as Core Data writes it: the format string is parsed once (when the
        // predicate is made) and translated once per entity; each fetch reuses the translation.
        if suite.wants("format") {
            var counts = (0, 0)
            let macro = CompanyWorkload.predicateRequest()
            let format = macro.copy()
            format.predicate = ManagedPredicate(format: "age > %d AND name BEGINSWITH %@", 30, "A")
            let path = try container.newBackgroundContext().explain(format).path
            let times = try suite.compare(
                baseline: { counts.0 = try container.newBackgroundContext().fetch(macro).count },
                ours: { counts.1 = try container.newBackgroundContext().fetch(format).count })
            if counts.0 != counts.1 || counts.0 == 0 {
                suite.fail("format predicate fetch: #Predicate \(counts.0) rows, format string \(counts.1)")
            }
            suite.record(
                BenchmarkResult(
                    name: "fetch with a format string vs the same #Predicate", ours: times.ours,
                    baseline: times.baseline, target: "<= 1.1x #Predicate", note: "\(counts.1) rows; path: \(path)"))
        }
    }
}
