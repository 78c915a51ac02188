import DataModel
import DataModelCodegen
import DataModelStore
import DataModelStoreLayout
import Foundation
import PostgresKit
import Testing

@testable import DataModelGenCLI

/// `datamodelgen migrate <bundle> postgresql://…` against the server `Scripts/with-postgres.sh` starts
/// (`DATAMODELGEN_TEST_POSTGRES_URL`); skipped, with the reason printed, without one. Every run is of the built
/// `datamodelgen` executable, which runs the built `datamodelgen-postgres` beside it.
@Suite("migrate PostgreSQL", .enabled(if: MigratePostgresServer.available && MigratePostgresServer.toolsBuilt))
struct MigrateCommandPostgresTests {
    /// A store of `Person.xcdatamodeld`'s first version in a new schema (as the runtime creates it: the tables, the
    /// `Z_PRIMARYKEY` rows, and `Z_METADATA` recording the version's entity hashes), with one person. Returns the
    /// connection (its search path on the schema) and a URL whose sessions use that schema too.
    static func firstVersionStore() throws -> (PostgresConnection, String) {
        let versions = try ModelLoader.loadVersions(path: MigrateCommandTests.person, versionName: "Person").versions
        let (connection, url) = try store(of: LayoutModel(try #require(versions.first).model))
        try connection.execute(#"INSERT INTO "ZPERSON" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES (1, 1, 1, 'Ann')"#)
        return (connection, url)
    }

    /// A store of `first` in a new schema, as the runtime creates it (without `recordingHashes`: as `schema --dialect
    /// postgres` creates it, no `Z_METADATA` row), without rows.
    static func store(of first: LayoutModel, recordingHashes: Bool = true) throws -> (PostgresConnection, String) {
        let server = try #require(MigratePostgresServer.url)
        let connection = try PostgresConnection(url: server)
        let schema = "m" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try connection.execute("CREATE SCHEMA \(schema); SET search_path TO \(schema)")
        let writer = DDLWriter(dialect: .postgres)
        let layout = try StoreLayout(model: first)
        for sql in writer.statements(for: layout) + writer.primaryKeyRowStatements(for: layout) {
            try connection.execute(sql)
        }
        if recordingHashes {
            let metadata: [String: PropertyListValue] = [
                "NSStoreType": .string("PostgreSQL"), "NSStoreUUID": .string(UUID().uuidString),
                StoreFile.versionHashesKey: .dictionary(first.versionHashes.mapValues { .string($0) }),
            ]
            _ = try connection.query(
                #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, 'test', $1)"#,
                [.bytes(Array(StoreFile.propertyList(metadata)))])
        }
        let url = server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
        return (connection, url)
    }

    static func columns(_ connection: PostgresConnection) throws -> [String] {
        try connection.query(
            "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() "
                + "AND table_name = 'ZPERSON' ORDER BY column_name"
        ).rows.compactMap { row -> String? in
            if case .text(let name)? = row.first { return name }
            return nil
        }
    }

    @Test func dryRunReportsAndWritesNothingThenMigrateMigrates() throws {
        let (connection, url) = try Self.firstVersionStore()
        let before = try Self.columns(connection)
        let dry = runBuiltTool(["migrate", MigrateCommandTests.person, url, "--dry-run", "--format", "json"])
        #expect(dry.code == .success, "\(dry.err)")
        let report = try JSONSerialization.jsonObject(with: Data(dry.out.utf8)) as? [String: Any]
        #expect(report?["sourceVersion"] as? String == "Person")
        #expect(report?["targetVersion"] as? String == "Person 2")
        #expect(report?["inferable"] as? Bool == true)
        #expect(report?["migrated"] as? Bool == false)
        #expect((report?["sql"] as? [String])?.contains { $0.contains(#""ZEMAIL""#) } == true, "\(dry.out)")
        #expect(try Self.columns(connection) == before, "a dry run writes nothing")

        let run = runBuiltTool(["migrate", MigrateCommandTests.person, url])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.contains("migrated"))
        #expect(try Self.columns(connection) == (before + ["ZEMAIL"]).sorted())
        let names = try connection.query(#"SELECT "ZNAME" FROM "ZPERSON""#).rows
        #expect(names == [[.text("Ann")]])
        let again = runBuiltTool(["migrate", MigrateCommandTests.person, url])
        #expect(again.code == .success)
        #expect(again.out.contains("up to date"), "the new hashes are recorded: \(again.out)")
    }

    @Test func anotherModelsStoreOrANewerVersionIsRefusedAndNothingWritten() throws {
        let (connection, url) = try Self.firstVersionStore()
        let before = try Self.columns(connection)
        let company = Paths.repositoryRoot.appendingPathComponent("Models/Company.xcdatamodeld").path
        let unknown = runBuiltTool(["migrate", company, url])
        #expect(unknown.code == .modelError)
        #expect(unknown.out.contains("no version of"), "\(unknown.out)")
        #expect(runBuiltTool(["migrate", MigrateCommandTests.person, url]).code == .success)
        let newer = runBuiltTool(["migrate", MigrateCommandTests.person, url, "--to", "Person"])
        #expect(newer.code == .modelError)
        #expect(newer.out.contains("newer than"), "\(newer.out)")
        #expect(try Self.columns(connection) == (before + ["ZEMAIL"]).sorted())
    }

    /// As on SQLite (`MigrateCommandTests.aMissingAttributeIndexIsCreated`): a store of the model's version that lacks
    /// an attribute index gets it, reported as a step; an index of the store's own is left alone.
    @Test func aMissingAttributeIndexIsCreated() throws {
        let model = Paths.repositoryRoot.appendingPathComponent("Models/ReservedNames.xcdatamodeld").path
        let loaded = try ModelLoader.loadVersions(path: model, versionName: nil)
        let (connection, url) = try Self.store(of: LayoutModel(loaded.versions[loaded.chosen].model))
        try connection.execute(
            #"DROP INDEX "ZDATA_ZCHECKSUM_INDEX"; CREATE INDEX "MY_OWN" ON "ZDATA" ("ZCHECKSUM")"#)
        let indexes = {
            try connection.query("SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()").rows
                .compactMap { row -> String? in
                    if case .text(let name)? = row.first { return name }
                    return nil
                }
        }
        #expect(try !indexes().contains("ZDATA_ZCHECKSUM_INDEX"))

        let dry = runBuiltTool(["migrate", model, url, "--dry-run", "--format", "json"])
        #expect(dry.code == .success, "\(dry.err)")
        let report = try JSONSerialization.jsonObject(with: Data(dry.out.utf8)) as? [String: Any]
        #expect((report?["steps"] as? [String]) == ["create index ZDATA_ZCHECKSUM_INDEX (the store lacks it)"])
        let sql = report?["sql"] as? [String] ?? []
        #expect(sql.count == 1 && sql[0].hasPrefix(#"CREATE INDEX IF NOT EXISTS "ZDATA_ZCHECKSUM_INDEX""#), "\(sql)")
        #expect(try !indexes().contains("ZDATA_ZCHECKSUM_INDEX"), "a dry run writes nothing")

        let run = runBuiltTool(["migrate", model, url])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.contains("migrated"), "\(run.out)")
        #expect(try indexes().contains("ZDATA_ZCHECKSUM_INDEX"))
        #expect(try indexes().contains("MY_OWN"))
        let again = runBuiltTool(["migrate", model, url])
        #expect(again.out.contains("up to date"), "\(again.out)")
    }

    /// Tables the schema command created have no `Z_METADATA` row: recognised by their layout, as the runtime does
    /// when it opens them (an earlier version's are migrated, and the row is written); tables of no version are
    /// refused with the reason, nothing written.
    @Test func tablesTheSchemaCommandCreatedAreRecognisedByTheirLayout() throws {
        let versions = try ModelLoader.loadVersions(path: MigrateCommandTests.person, versionName: "Person").versions
        let (connection, url) = try Self.store(
            of: LayoutModel(try #require(versions.first).model), recordingHashes: false)
        let before = try Self.columns(connection)
        let company = Paths.repositoryRoot.appendingPathComponent("Models/Company.xcdatamodeld").path
        let other = runBuiltTool(["migrate", company, url])
        #expect(other.code == .modelError)
        #expect(other.out.contains("records no entity version hashes"), "\(other.out)")
        #expect(try Self.columns(connection) == before)

        let dry = runBuiltTool(["migrate", MigrateCommandTests.person, url, "--dry-run"])
        #expect(dry.code == .success, "\(dry.err)")
        #expect(dry.out.contains("source version: Person\n"), "\(dry.out)")
        #expect(try Self.columns(connection) == before, "a dry run writes nothing")
        #expect(try connection.query(#"SELECT "Z_VERSION" FROM "Z_METADATA""#).rows.isEmpty)

        let run = runBuiltTool(["migrate", MigrateCommandTests.person, url])
        #expect(run.code == .success, "\(run.err)")
        #expect(try Self.columns(connection) == (before + ["ZEMAIL"]).sorted())
        #expect(try connection.query(#"SELECT "Z_VERSION" FROM "Z_METADATA""#).rows.count == 1)
        let again = runBuiltTool(["migrate", MigrateCommandTests.person, url])
        #expect(again.out.contains("up to date"), "the row records the new version's hashes: \(again.out)")
    }

    @Test func anEmptySchemaIsNotAStore() throws {
        let server = try #require(MigratePostgresServer.url)
        let connection = try PostgresConnection(url: server)
        let schema = "m" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try connection.execute("CREATE SCHEMA \(schema)")
        let url = server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
        let run = runBuiltTool(["migrate", MigrateCommandTests.person, url])
        #expect(run.code == .modelError)
        #expect(run.out.contains("empty"), "\(run.out)")
    }
}

/// Bad URLs and servers that are down need no server: a diagnostic and exit code 3, never a crash. These run the built
/// `datamodelgen` too, and so show that it finds `datamodelgen-postgres` (only that tool talks to a server).
@Suite("migrate PostgreSQL URLs", .enabled(if: MigratePostgresServer.toolsBuilt))
struct MigrateCommandPostgresURLTests {
    /// A URL where nothing listens (port 1 on the loopback interface), with a password.
    static let down = "postgresql://nobody:secret@127.0.0.1:1/none"
    /// What `datamodelgen-postgres` says about ``down``: the URL without its password, then libpq's reason.
    static let downDiagnostic = "postgresql://nobody:***@127.0.0.1:1/none: error:"

    @Test func aServerThatIsDownIsAnIOError() {
        let run = runBuiltTool(["migrate", MigrateCommandTests.person, Self.down])
        #expect(run.code == .ioError)
        #expect(run.err.contains(Self.downDiagnostic), "\(run.err)")
        #expect(!run.err.contains("secret"), "the password is never shown")
    }

    @Test func aMalformedURLIsAnIOError() {
        let run = runBuiltTool(["migrate", MigrateCommandTests.person, "postgresql://127.0.0.1:notaport/x"])
        #expect(run.code == .ioError)
        #expect(run.err.contains("postgresql://127.0.0.1:notaport/x: error:"), "\(run.err)")
    }

    @Test func aUsageErrorIsDatamodelgensOwn() {
        let run = runBuiltTool(["migrate", MigrateCommandTests.person, Self.down, "--frobnicate"])
        #expect(run.code == .usageError)
        #expect(run.err.contains("--frobnicate"), "\(run.err)")
    }

    /// In a process that is not `datamodelgen` (this test's), the tool's output still reaches its `Console`.
    @Test func inProcessTheToolsOutputReachesTheConsole() {
        let run = runTool(["migrate", MigrateCommandTests.person, Self.down, "--format", "json"])
        #expect(run.code == .ioError)
        #expect(run.err.contains(Self.downDiagnostic), "\(run.err)")
    }

    @Test func datamodelgenPostgresRunsDirectly() {
        let run = runBuiltTool(
            ["migrate", MigrateCommandTests.person, Self.down], executable: Paths.postgresExecutable)
        #expect(run.code == .ioError)
        #expect(run.err.contains(Self.downDiagnostic), "\(run.err)")
    }

    /// A copy of the built `datamodelgen` alone in a new directory, and an empty one, both removed after `body`.
    static func withLoneCopy(_ body: (_ copy: URL, _ empty: URL) throws -> Void) throws {
        let built = try #require(Paths.executable)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dmg-\(UUID().uuidString)")
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("datamodelgen")
        try FileManager.default.copyItem(at: built, to: copy)
        try body(copy, empty)
    }

    @Test func withoutTheToolBesideItOrOnThePathTheDiagnosticSaysHowToBuildIt() throws {
        try Self.withLoneCopy { copy, empty in
            let run = runBuiltTool(
                ["migrate", MigrateCommandTests.person, Self.down], executable: copy,
                environment: ["PATH": empty.path])
            #expect(run.code == .ioError)
            #expect(
                run.err
                    == "error: migrating a PostgreSQL store needs the datamodelgen-postgres tool next to datamodelgen; "
                    + "build it with swift build --product datamodelgen-postgres\n")
            #expect(run.out.isEmpty)
            // A SQLite store needs no other tool.
            let sqlite = runBuiltTool(
                ["migrate", MigrateCommandTests.person, empty.appendingPathComponent("none.sqlite").path],
                executable: copy, environment: ["PATH": empty.path])
            #expect(sqlite.code == .ioError)
            #expect(sqlite.err.contains("none.sqlite: error: no such store"), "\(sqlite.err)")
        }
    }

    @Test func notBesideItButOnThePathTheToolIsFound() throws {
        let tool = try #require(Paths.postgresExecutable)
        try Self.withLoneCopy { copy, empty in
            let run = runBuiltTool(
                ["migrate", MigrateCommandTests.person, Self.down], executable: copy,
                environment: ["PATH": empty.path + ":" + tool.deletingLastPathComponent().path])
            #expect(run.code == .ioError)
            #expect(run.err.contains(Self.downDiagnostic), "\(run.err)")
        }
    }

    #if os(Linux)
        /// In the `datamodelgen` executable the process becomes `datamodelgen-postgres` (the same process id): a
        /// signal sent to it, such as a deploy script's `kill -9`, stops the migration itself rather than leaving it
        /// running in an orphaned child. The URL names a port that accepts connections and never answers, so the tool
        /// waits there.
        @Test func datamodelgenBecomesTheToolInTheSameProcess() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(listener >= 0)
            defer { close(listener) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, length) == 0 && listen(listener, 4) == 0
                        && getsockname(listener, $0, &length) == 0
                }
            }
            try #require(bound)
            let port = UInt16(bigEndian: address.sin_port)
            let executable = try #require(Paths.executable)
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "migrate", MigrateCommandTests.person, "postgresql://nobody@127.0.0.1:\(port)/none?connect_timeout=60",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var became = false
            for _ in 0..<600 where !became {
                let exe = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/\(process.processIdentifier)/exe")
                became = exe?.hasSuffix("/datamodelgen-postgres") == true
                if !became { usleep(50_000) }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(became, "the process did not become datamodelgen-postgres")
            #expect(process.terminationReason == .uncaughtSignal)
        }

        /// The point of the separate tool: `datamodelgen` does not load libpq (a library it needs is named in its
        /// dynamic section, so the name is in the file); `datamodelgen-postgres` does.
        @Test func onlyDatamodelgenPostgresLinksLibpq() throws {
            let linksLibpq = { (url: URL) throws -> Bool in
                try Data(contentsOf: url).range(of: Data("libpq.so".utf8)) != nil
            }
            #expect(try !linksLibpq(try #require(Paths.executable)))
            #expect(try linksLibpq(try #require(Paths.postgresExecutable)))
        }
    #endif
}

enum MigratePostgresServer {
    static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["DATAMODELGEN_TEST_POSTGRES_URL"], !url.isEmpty else {
            print("migrate PostgreSQL: skipped, DATAMODELGEN_TEST_POSTGRES_URL is not set (Scripts/with-postgres.sh)")
            return nil
        }
        return url
    }()

    static var available: Bool { url != nil }

    /// Whether `datamodelgen` and `datamodelgen-postgres` were built next to the test bundle (`swift build
    /// --build-tests` builds them); printed when not.
    static let toolsBuilt: Bool = {
        guard Paths.executable != nil, Paths.postgresExecutable != nil else {
            print(
                "migrate PostgreSQL: skipped, datamodelgen and datamodelgen-postgres were not built next to the tests")
            return false
        }
        return true
    }()
}
