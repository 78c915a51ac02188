import DataModelRuntime
import Foundation
import GeneratedCompanyModel

/// Peak resident memory per fetched object, measured in a fresh child process per side.
enum MemoryProbe {
    /// The process's peak resident set size in bytes (`VmHWM`), or 0 where /proc is unavailable.
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").compactMap { Int($0) }
            return (digits.first ?? 0) * 1024
        }
        return 0
    }

    /// Prints `objects bytesPerObject` for fetching every employee on `side` ("ours" or "raw").
    ///
    /// Each side first opens its store and fetches 100 rows (dropped again), so that what is
    /// counted is the growth per fetched row, not the code pages, SQLite's schema and the
    /// allocator's first arenas that any first query brings in (about 19 MB on either side, which
    /// divided among 100,000 rows added some 190 B to both).
    static func run(side: String, path: String) throws {
        let count: Int
        var keepAlive: [AnyObject] = []
        let before: Int
        if side == "ours" {
            let container = try PersistentContainer(
                model: CompanyModel.model, store: .sqlite(at: URL(fileURLWithPath: path)))
            _ = try container.newBackgroundContext().fetch(EmployeeEntity.fetchRequest().limited(to: 100))
                .reduce(0) { $0 + ($1.name?.utf8.count ?? 0) }
            before = peakResidentBytes()
            let employees = try container.viewContext.fetch(EmployeeEntity.fetchRequest())
            // Read attributes so objects are not left as faults.
            count = employees.reduce(0) { $0 + ($1.name?.isEmpty == false && $1.age != nil ? 1 : 0) }
            keepAlive = [container, employees as AnyObject]
        } else {
            let raw = try RawCompanyBaseline(path: path, schema: [])
            _ = try raw.fetchFirst(100).count
            before = peakResidentBytes()
            let rows = try raw.fetchAll()
            count = rows.count
            keepAlive = [raw, rows as AnyObject]
        }
        let after = peakResidentBytes()
        print("\(count) \((after - before) / max(count, 1))")
        withExtendedLifetime(keepAlive) {}
    }

    /// Runs both sides on the store at `path` and records the bytes per object.
    static func measure(_ suite: inout BenchmarkSuite, path: String, expected: Int) throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        func probe(_ side: String) throws -> (count: Int, bytes: Int) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: me)
            process.arguments = ["--memory-probe", side, path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            guard process.terminationStatus == 0, fields.count == 2 else {
                throw BenchmarkError("memory probe (\(side)) failed: \(output)")
            }
            return (fields[0], fields[1])
        }
        let ours = try probe("ours")
        let raw = try probe("raw")
        if ours.count != expected || raw.count != expected {
            suite.fail("memory probe: expected \(expected) objects, ours \(ours.count), raw \(raw.count)")
        }
        suite.record(
            BenchmarkResult(
                name: "peak bytes per fetched object", ours: Double(ours.bytes) / 1000,
                baseline: Double(raw.bytes) / 1000,
                target: "<= 400 B per EmployeeEntity",
                note: "bytes, not ms, in this row: \(ours.bytes) B per object, \(raw.bytes) B per raw row"))
    }
}
