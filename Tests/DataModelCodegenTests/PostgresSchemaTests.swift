import DataModelGenCLI
import DataModelStoreLayout
import Foundation
import Testing

/// `datamodelgen schema --dialect postgres`: golden DDL for the example models, and DDL that a real PostgreSQL
/// server accepts for every model in `Models/` and the corpus (with and without foreign keys), with the column
/// types a person querying it expects.
@Suite struct PostgresSchemaTests {
    static let models = TestPaths.exampleModels.map(\.lastPathComponent)

    /// The server `Scripts/with-postgres.sh` started, and `psql` to talk to it.
    static let server: (url: String, psql: String)? = {
        guard let url = ProcessInfo.processInfo.environment["DATAMODELGEN_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/psql"
            if FileManager.default.isExecutableFile(atPath: candidate) { return (url, candidate) }
        }
        return nil
    }()

    @Test(arguments: models)
    func postgresSchemaMatchesGolden(model: String) throws {
        let name = String(model.dropLast(".xcdatamodeld".count))
        let run = ToolRun.run([
            "schema", TestPaths.models.appendingPathComponent(model).path, "--dialect", "postgres", "--foreign-keys",
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        let path = TestPaths.golden.appendingPathComponent("\(name)/\(name).postgres.sql").path
        let expected = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(
            expected == run.out,
            "postgres schema of \(model) differs from \(path); if intended, run \(GoldenTests.regenerate)\n\(UnifiedDiffText.of(expected, run.out))"
        )
    }

    @Test func postgresTypesFollowTheAttributeTypes() throws {
        let run = ToolRun.run([
            "schema", TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path, "--dialect", "postgres",
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        #expect(run.out.contains(#""Z_PK" BIGINT PRIMARY KEY"#))
        #expect(run.out.contains(#""ZAGE" SMALLINT"#))
        #expect(run.out.contains(#""ZDATEJOINED" TIMESTAMPTZ"#))
        #expect(run.out.contains(#""ZNAME" TEXT"#))
        #expect(run.out.contains(#""Z_PLIST" BYTEA"#))
        #expect(run.out.contains("ON CONFLICT DO NOTHING"))
        #expect(!run.out.contains("INSERT OR IGNORE"))
        #expect(!run.out.contains("FOREIGN KEY"), "foreign keys only when asked")
        let sqlite = ToolRun.run(["schema", TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path])
        #expect(sqlite.out.contains(#""ZAGE" INTEGER"#), "SQLite keeps Core Data's types")
    }

    @Test func unknownDialectIsAUsageError() {
        let run = ToolRun.run([
            "schema", TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path, "--dialect", "oracle",
        ])
        #expect(run.exitCode == .usageError)
        #expect(run.err.contains("oracle"))
    }

    @Test func sqliteForeignKeysAreInlineAndEnforced() throws {
        let run = ToolRun.run([
            "schema", TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path, "--foreign-keys",
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        #expect(
            run.out.contains(
                #""ZDEPARTMENT" INTEGER REFERENCES "ZDEPARTMENTENTITY" ("Z_PK") DEFERRABLE INITIALLY DEFERRED"#))
    }

    /// Every model's PostgreSQL DDL, with and without foreign keys, runs on a real server, each in a schema of
    /// its own and in one transaction; then the server's catalogue is asked for the column types.
    @Test(.enabled(if: server != nil, "no PostgreSQL server: run under Scripts/with-postgres.sh (CI does)"))
    func everyModelLoadsIntoPostgreSQL() throws {
        guard let server = Self.server else { return }
        let models = TestPaths.exampleModels + TestPaths.corpusModels
        // One psql run per mode (starting psql per model costs more than the DDL); each model in a transaction and a
        // schema of its own, announced with `\echo` so that an error names the model it stopped at.
        var laidOut = 0
        var scripts = ["", ""]
        for (index, model) in models.enumerated() {
            // A model that cannot be laid out has no schema in either dialect (the generator tests cover those).
            guard ToolRun.run(["schema", model.path]).exitCode == .success else { continue }
            laidOut += 1
            for (mode, foreignKeys) in [false, true].enumerated() {
                let run = ToolRun.run(
                    ["schema", model.path, "--dialect", "postgres"] + (foreignKeys ? ["--foreign-keys"] : []))
                #expect(run.exitCode == .success, "\(model.path): \(run.err)")
                let schema = "m\(index)"
                scripts[mode] +=
                    "\\echo 'model: \(model.lastPathComponent)'\nBEGIN;\nCREATE SCHEMA \(schema);\nSET LOCAL search_path TO \(schema);\n"
                    + run.out
                    + "\nSET CONSTRAINTS ALL IMMEDIATE;\nDROP SCHEMA \(schema) CASCADE;\nCOMMIT;\n\\echo 'loaded'\n"
            }
        }
        #expect(laidOut >= TestPaths.exampleModels.count)
        for (mode, script) in scripts.enumerated() {
            let result = try Self.psql(server, script: script, singleTransaction: false)
            let loaded = result.output.components(separatedBy: "\nloaded").count - 1
            #expect(result.status == 0, "foreign keys: \(mode == 1): \(result.output.suffix(2000))")
            #expect(loaded == laidOut, "PostgreSQL accepted \(loaded) of \(laidOut) schemas")
        }
        print("PostgreSQL accepted the schema of \(laidOut) models (with and without foreign keys)")

        // The catalogue says the types a psql user expects.
        let company = ToolRun.run([
            "schema", TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path, "--dialect", "postgres",
            "--foreign-keys",
        ])
        let types = try Self.psql(
            server,
            script: "CREATE SCHEMA company; SET search_path TO company;\n" + company.out
                + #"""

                \pset format unaligned
                \pset tuples_only on
                SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns
                    WHERE table_schema = 'company' AND table_name = 'ZEMPLOYEEENTITY' ORDER BY ordinal_position;
                SELECT count(*) || ' foreign keys' FROM information_schema.table_constraints
                    WHERE table_schema = 'company' AND constraint_type = 'FOREIGN KEY';
                DROP SCHEMA company CASCADE;
                """#)
        #expect(types.status == 0, "\(types.output)")
        for expected in [
            "ZEMPLOYEEENTITY.Z_PK bigint", "ZEMPLOYEEENTITY.ZAGE smallint",
            "ZEMPLOYEEENTITY.ZDATEJOINED timestamp with time zone", "ZEMPLOYEEENTITY.ZNAME text",
            "ZEMPLOYEEENTITY.ZDEPARTMENT bigint", "4 foreign keys",
        ] {
            #expect(types.output.contains(expected), "\(expected) in:\n\(types.output)")
        }
    }

    /// Runs `script` through `psql` (in one transaction unless told otherwise), stopping at the first error.
    static func psql(_ server: (url: String, psql: String), script: String, singleTransaction: Bool = true) throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: server.psql)
        process.arguments =
            [server.url, "--no-psqlrc", "--quiet", "-v", "ON_ERROR_STOP=1"]
            + (singleTransaction ? ["--single-transaction"] : [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Write on another thread: psql's output may fill the pipe before it has read all of its input.
        let data = Data(script.utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }
}
