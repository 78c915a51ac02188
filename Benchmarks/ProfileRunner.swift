import DataModelRuntime
import DataModelStoreLayout
import Foundation
import GeneratedCompanyModel

/// `datamodelgen-benchmarks --profile CASE [EMPLOYEES]`: runs our side of one runtime case once,
/// for an instruction profiler. Only `profiledWork` is the case itself, so
/// `valgrind --tool=callgrind --toggle-collect='*profiledWork*' …` counts nothing else.
enum ProfileRunner {
    static func run(case name: String, employees: Int, repeats: Int?) throws {
        let departments = 100
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datamodelgen-profile-\(getpid()).sqlite"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dateJoined = Date(timeIntervalSinceReferenceDate: 700_000_000)
        if name != "insert" {
            let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
            let raw = try RawCompanyBaseline(
                path: path, schema: layout.ddlStatements() + layout.primaryKeyRowStatements())
            try raw.insert(
                employees: employees, departments: departments, dateJoined: dateJoined.timeIntervalSinceReferenceDate)
        }
        let container = try PersistentContainer(
            model: CompanyModel.model, store: .sqlite(at: URL(fileURLWithPath: path)))
        // The predicate case's request is made once and fetched each run, as the benchmark suite does (its
        // translation is kept on the request after the first fetch).
        let predicateRequest = CompanyWorkload.predicateRequest()
        if let repeats {
            try measure(repeats: repeats) {
                _ = try profiledWork(
                    name, container: container, path: path, employees: employees, dateJoined: dateJoined,
                    predicateRequest: predicateRequest)
            }
        }
        let count = try profiledWork(
            name, container: container, path: path, employees: employees, dateJoined: dateJoined,
            predicateRequest: predicateRequest)
        print("\(name): \(count)")
    }

    /// `--repeat N`: runs `work` three times to warm up, then `N` times, and prints the mean
    /// wall, user and system time and page faults of one run. A case alone in its process,
    /// repeated, shows what the interleaved suite hides: how the allocator's state carries
    /// over (the system time is mostly page faults on memory the allocator gave back).
    private static func measure(repeats: Int, _ work: () throws -> Void) throws {
        for _ in 0..<3 { try work() }
        var before = rusage()
        getrusage(RUSAGE_SELF_ID, &before)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<max(repeats, 1) { try work() }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        var after = rusage()
        getrusage(RUSAGE_SELF_ID, &after)
        func milliseconds(_ from: timeval, _ to: timeval) -> Double {
            Double(to.tv_sec - from.tv_sec) * 1e3 + Double(to.tv_usec - from.tv_usec) / 1e3
        }
        let runs = Double(max(repeats, 1))
        print(
            String(
                format: "per run: wall %.2f ms, user %.2f ms, system %.2f ms, %.0f page faults", wall / runs,
                milliseconds(before.ru_utime, after.ru_utime) / runs,
                milliseconds(before.ru_stime, after.ru_stime) / runs,
                Double(after.ru_minflt - before.ru_minflt) / runs))
    }

    /// `RUSAGE_SELF`, as `getrusage` takes it.
    private static let RUSAGE_SELF_ID = Int32(RUSAGE_SELF.rawValue)

    @inline(never)
    static func profiledWork(
        _ name: String, container: PersistentContainer, path: String, employees: Int, dateJoined: Date,
        predicateRequest: FetchRequest<EmployeeEntity>
    ) throws -> Int {
        let context = container.newBackgroundContext()
        switch name {
        case "insert":
            try CompanyWorkload.insert(
                into: .sqlite(at: URL(fileURLWithPath: path + "-insert")), employees: employees, departments: 100,
                dateJoined: dateJoined)
            try? FileManager.default.removeItem(atPath: path + "-insert")
            return employees
        case "fetch":
            return try CompanyWorkload.fetchAndRead(container).checksum
        case "traverse":
            return try CompanyWorkload.traverse(container)
        case "update":
            try CompanyWorkload.update(container, count: employees / 10, age: 41)
            return employees / 10
        case "predicate":
            return try context.fetch(predicateRequest).count
        case "raw-insert":
            let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
            let raw = try RawCompanyBaseline(
                path: path + "-raw", schema: layout.ddlStatements() + layout.primaryKeyRowStatements())
            try raw.insert(
                employees: employees, departments: 100, dateJoined: dateJoined.timeIntervalSinceReferenceDate)
            try? FileManager.default.removeItem(atPath: path + "-raw")
            return employees
        case "raw-fetch":
            return RawCompanyBaseline.readTwoAttributes(try RawCompanyBaseline(path: path, schema: []).fetchAll())
        case "raw-traverse":
            return try RawCompanyBaseline(path: path, schema: []).traverseDepartments(count: 100)
        case "raw-update":
            try RawCompanyBaseline(path: path, schema: []).update(count: employees / 10, age: 41)
            return employees / 10
        case "raw-predicate":
            return try RawCompanyBaseline(path: path, schema: []).fetchFiltered().count
        default:
            throw StoreError.unknownEntity(
                "no profile case '\(name)' (insert, fetch, traverse, update, predicate, raw-insert, raw-fetch, "
                    + "raw-traverse, raw-update, raw-predicate)")
        }
    }
}
