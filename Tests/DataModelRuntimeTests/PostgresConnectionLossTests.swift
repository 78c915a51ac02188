import DataModelRuntime
import Foundation
import PostgresKit
import Testing

/// A store whose server session is ended from outside (`pg_terminate_backend`, as an administrator, a failover or
/// an idle timeout of a proxy would): the operation that meets the lost connection fails with a connection error,
/// a failed save keeps the context's changes and wrote nothing, and the next operation runs on a new session.
@Suite(
    "PostgreSQL store: dropped connections",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresConnectionLossTests {
    /// A fresh schema, and a container on it whose session carries a name of its own (`application_name`), so a
    /// second connection can find its server process.
    struct DroppableStore {
        let schema: String
        let url: URL
        let sessionName: String
        let container: PersistentContainer
        /// A connection of the test's own, on the same schema.
        let observer: PostgresConnection

        init(connectionPoolMaxSize: Int = PersistentStoreDescription.defaultConnectionPoolMaxSize) throws {
            let fresh = try PostgresTestServer.freshSchema()
            schema = fresh.name
            sessionName = "drop_" + fresh.name
            url = try #require(URL(string: fresh.url.absoluteString + "&application_name=" + sessionName))
            container = try PersistentContainer(
                model: MembersModel.model, store: .postgres(url: url), connectionPoolMaxSize: connectionPoolMaxSize)
            observer = try PostgresConnection(url: fresh.url.absoluteString)
        }

        var context: ManagedObjectContext { container.viewContext }

        /// Ends the container's sessions; returns how many were ended.
        @discardableResult
        func terminate() throws -> Int {
            let result = try observer.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
                [.text(sessionName)])
            // The server ends the process asynchronously: wait until it is gone.
            for _ in 0..<200 {
                let left = try observer.query(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1", [.text(sessionName)])
                if left[0, 0] == .int(0) { break }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return result.rows.count
        }

        /// The members' names and ages as the database holds them (a connection of its own).
        func committed() throws -> [String: Int64] {
            var members: [String: Int64] = [:]
            for row in try observer.query(#"SELECT "ZNAME", "ZAGE" FROM "ZMEMBERENTITY""#).rows {
                guard case .text(let name) = row[0], case .int(let age) = row[1] else { continue }
                members[name] = age
            }
            return members
        }

        func cleanUp() {
            PostgresTestServer.drop(schema: schema)
        }
    }

    /// Whether `error` is a store error of a lost connection.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        guard case StoreError.postgres(let failure)? = error as? StoreError else { return false }
        return failure.kind == .connection
    }

    @Test("a session ended before a save: the save fails and keeps its changes, the next save commits them")
    func droppedBeforeSave() throws {
        let store = try DroppableStore()
        defer { store.cleanUp() }
        let context = store.context
        let first = MemberEntity(context: context)
        first.name = "first"
        first.age = 1
        try context.save()

        let second = MemberEntity(context: context)
        second.name = "second"
        second.age = 2
        first.age = 10
        #expect(try store.terminate() == 1)
        #expect { try context.save() } throws: { Self.isConnectionLoss($0) }
        // Reported, not half written: the context still holds both changes, the database neither.
        #expect(context.hasChanges)
        #expect(second.isInserted && first.isUpdated)
        #expect(try store.committed() == ["first": 1])
    }

    @Test("after the failed save, the next one goes through on a new session; fetches work again")
    func nextSaveReconnects() throws {
        let store = try DroppableStore()
        defer { store.cleanUp() }
        let context = store.context
        let first = MemberEntity(context: context)
        first.name = "first"
        first.age = 1
        try context.save()
        try store.terminate()

        let second = MemberEntity(context: context)
        second.name = "second"
        second.age = 2
        first.age = 10
        #expect { try context.save() } throws: { Self.isConnectionLoss($0) }
        try context.save()
        #expect(!context.hasChanges)
        #expect(try store.committed() == ["first": 10, "second": 2])
        // The new session is a new server process.
        let sessions = try store.observer.query(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1", [.text(store.sessionName)])
        #expect(sessions[0, 0] == .int(1))
        // The saved versions are right: a further change of both is no conflict.
        first.age = 11
        second.age = 3
        try context.save()
        #expect(try store.committed() == ["first": 11, "second": 3])
    }

    @Test("a fetch that finds the session ended fails with a connection error; the next fetch reconnects")
    func droppedBeforeFetch() throws {
        let store = try DroppableStore()
        defer { store.cleanUp() }
        for (name, age) in [("a", 1), ("b", 2), ("c", 3)] {
            let member = MemberEntity(context: store.context)
            member.name = name
            member.age = Int16(age)
        }
        try store.context.save()
        // A second container: nothing of the rows is registered in its context, so the fetch reads the table.
        let reader = try PersistentContainer(model: MembersModel.model, store: .postgres(url: store.url)).viewContext
        let request = MemberEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        #expect(try reader.fetch(request).map(\.name) == ["a", "b", "c"])
        #expect(try store.terminate() == 2)
        var failures = 0
        var names: [String?] = []
        for _ in 0..<2 {
            do {
                names = try reader.fetch(request).map(\.name)
                break
            } catch {
                #expect(Self.isConnectionLoss(error), "\(error)")
                failures += 1
            }
        }
        #expect(failures <= 1)
        #expect(names == ["a", "b", "c"])
        #expect(try reader.count(for: request) == 3)
    }

    /// A deferred constraint trigger runs at `COMMIT` and waits there for an advisory lock the test holds; the test
    /// ends the session while it waits, so the connection is lost at `COMMIT` itself, every time.
    @Test("a session ended while COMMIT runs: the save fails saying the outcome is unknown; the next save goes through")
    func droppedAtCommit() throws {
        let store = try DroppableStore()
        defer { store.cleanUp() }
        let first = MemberEntity(context: store.context)
        first.name = "before"
        first.age = 1
        try store.context.save()
        try store.observer.execute(
            """
            CREATE FUNCTION wait_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NULL; END $$
            """)
        try store.observer.execute(
            #"CREATE CONSTRAINT TRIGGER wait_at_commit AFTER INSERT OR UPDATE ON "ZMEMBERENTITY" "#
                + "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION wait_at_commit()")
        try store.observer.query("SELECT pg_advisory_lock(4242)")
        let context = store.container.newBackgroundContext()
        let added = MemberEntity(context: context)
        added.name = "at commit"
        added.age = 2
        let save = BlockedSave(context: context)
        save.start()
        defer { save.finish() }
        var waitsAtCommit = false
        for _ in 0..<1000 where !waitsAtCommit {
            let found = try store.observer.query(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' "
                    + "AND query = 'COMMIT'", [.text(store.sessionName)])
            waitsAtCommit = found[0, 0] == .int(1)
            if !waitsAtCommit { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(waitsAtCommit, "the save's COMMIT waits in the deferred trigger")
        #expect(try store.terminate() >= 1)
        let error = save.result()
        #expect(error.map(Self.isConnectionLoss) == true, "\(String(describing: error))")
        #expect("\(error.map { "\($0)" } ?? "")".contains("whether the transaction committed is unknown"))
        try store.observer.query("SELECT pg_advisory_unlock(4242)")
        // The server ended the session before the commit finished: the row is not there.
        #expect(try store.committed() == ["before": 1])
        try store.observer.execute(#"DROP TRIGGER wait_at_commit ON "ZMEMBERENTITY""#)
        // Nothing is retried half-way; the next save reconnects and commits the change it still holds.
        try context.save()
        #expect(try store.committed() == ["before": 1, "at commit": 2])
    }

    @Test("a session ended in the middle of a save's transaction: nothing of it is committed, and the save fails")
    func droppedMidSave() throws {
        let store = try DroppableStore()
        defer { store.cleanUp() }
        let context = store.context
        var members: [String: MemberEntity] = [:]
        for name in ["deleted", "updated", "blocked"] {
            let member = MemberEntity(context: context)
            member.name = name
            member.age = 1
            members[name] = member
        }
        try context.save()
        let deleted = try #require(members["deleted"])
        let updated = try #require(members["updated"])
        let blocked = try #require(members["blocked"])

        // Another session holds the row lock of `blocked`: the save deletes one row and updates another, then waits
        // for that lock — in the middle of its transaction — and its session is ended there.
        let blocker = try PostgresConnection(url: store.observer.url)
        try blocker.execute("BEGIN")
        try blocker.query(
            #"SELECT "Z_PK" FROM "ZMEMBERENTITY" WHERE "Z_PK" = $1 FOR UPDATE"#, [.int(blocked.objectID.primaryKey)])
        context.delete(deleted)
        updated.age = 2
        blocked.age = 2
        for index in 0..<20 {
            let member = MemberEntity(context: context)
            member.name = "new \(index)"
            member.age = 5
        }
        let killer = WaitingSessionKiller(url: store.observer.url, sessionName: store.sessionName)
        killer.start()
        #expect { try context.save() } throws: { Self.isConnectionLoss($0) }
        #expect(killer.waitForResult() == true, "the save's session was found waiting for the lock and ended")
        try blocker.execute("ROLLBACK")

        // Nothing of the save is in the database; the context still holds all of it.
        #expect(try store.committed() == ["deleted": 1, "updated": 1, "blocked": 1])
        #expect(deleted.isDeleted && updated.isUpdated && blocked.isUpdated)
        #expect(context.insertedObjects.count == 20)

        // The next save commits it all, once.
        try context.save()
        var expected: [String: Int64] = ["updated": 2, "blocked": 2]
        for index in 0..<20 { expected["new \(index)"] = 5 }
        #expect(try store.committed() == expected)
        let keys = try store.observer.query(#"SELECT COUNT(DISTINCT "Z_PK"), COUNT(*) FROM "ZMEMBERENTITY""#)
        #expect(keys[0, 0] == .int(22) && keys[0, 1] == .int(22))
    }
}

/// A thread that waits (up to 20 s) for the session named `sessionName` to wait for a lock, and ends it.
final class WaitingSessionKiller: @unchecked Sendable {  // safe: `result` is only touched under `condition`
    private let url: String
    private let sessionName: String
    private let condition = NSCondition()
    private var result: Bool?

    init(url: String, sessionName: String) {
        self.url = url
        self.sessionName = sessionName
    }

    func start() {
        let thread = Thread { [self] in
            let killed = (try? killWhenWaiting()) ?? false
            condition.lock()
            result = killed
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    private func killWhenWaiting() throws -> Bool {
        let connection = try PostgresConnection(url: url)
        for _ in 0..<2000 {
            let killed = try connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 "
                    + "AND wait_event_type = 'Lock'", [.text(sessionName)])
            if !killed.rows.isEmpty { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// Whether the session was found and ended.
    func waitForResult() -> Bool? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result
    }
}

/// On PostgreSQL, background contexts (`newBackgroundContext()`, `performBackgroundTask`) use a small pool of
/// connections besides the view context's: work on one does not queue behind another's, and the pool is bounded.
@Suite(
    "PostgreSQL store: connection pool",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresConnectionPoolTests {
    /// How many server sessions the store's container has open.
    static func sessions(_ store: PostgresConnectionLossTests.DroppableStore) throws -> Int64 {
        let result = try store.observer.query(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1", [.text(store.sessionName)])
        guard case .int(let count) = result[0, 0] else { return -1 }
        return count
    }

    @Test("a background save proceeds while another background context's save waits for a row lock")
    func backgroundSavesDoNotQueue() throws {
        let store = try PostgresConnectionLossTests.DroppableStore()
        defer { store.cleanUp() }
        for name in ["blocked", "free"] {
            let member = MemberEntity(context: store.context)
            member.name = name
            member.age = 1
        }
        try store.context.save()
        let request = MemberEntity.fetchRequest().matching(\.name, equals: "blocked")
        let first = store.container.newBackgroundContext()
        let blockedMember = try #require(try first.fetch(request).first)
        let second = store.container.newBackgroundContext()
        let freeMember = try #require(
            try second.fetch(MemberEntity.fetchRequest().matching(\.name, equals: "free")).first)

        // Another session holds the row lock of `blocked`: the first context's save waits for it on its thread.
        let blocker = try PostgresConnection(url: store.observer.url)
        try blocker.execute("BEGIN")
        try blocker.query(
            #"SELECT "Z_PK" FROM "ZMEMBERENTITY" WHERE "Z_PK" = $1 FOR UPDATE"#,
            [.int(blockedMember.objectID.primaryKey)])
        blockedMember.age = 2
        let waiting = BlockedSave(context: first)
        waiting.start()
        defer { waiting.finish() }
        // Wait until the first save is waiting for the lock.
        var isWaiting = false
        for _ in 0..<1000 where !isWaiting {
            let found = try store.observer.query(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
                [.text(store.sessionName)])
            isWaiting = found[0, 0] == .int(1)
            if !isWaiting { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(isWaiting, "the first background save waits for the row lock")
        // Meanwhile the second background context and the view context fetch and save on their own connections;
        // a second blocker thread lets everything go after 20 s, so a queued save fails the test rather than hang.
        let observerURL = store.observer.url
        let sessionName = store.sessionName
        let release = Thread {
            Thread.sleep(forTimeInterval: 20)
            _ = try? PostgresConnection(url: observerURL).query(
                "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = $1 "
                    + "AND wait_event_type = 'Lock'", [.text(sessionName)])
        }
        release.start()
        let started = Date()
        freeMember.age = 3
        try second.save()
        #expect(try second.count(for: MemberEntity.fetchRequest()) == 2)
        #expect(try store.context.count(for: MemberEntity.fetchRequest()) == 2)
        #expect(Date().timeIntervalSince(started) < 10, "the second save did not wait for the first")
        #expect(try store.committed() == ["blocked": 1, "free": 3])
        try blocker.execute("ROLLBACK")
        #expect(waiting.result() == nil, "the first save commits once the lock is released")
        #expect(try store.committed() == ["blocked": 2, "free": 3])
    }

    @Test("the pool is bounded: many background contexts share a few connections")
    func poolIsBounded() async throws {
        let store = try PostgresConnectionLossTests.DroppableStore()
        defer { store.cleanUp() }
        let member = MemberEntity(context: store.context)
        member.name = "one"
        try store.context.save()
        #expect(try Self.sessions(store) == 1)
        let container = store.container
        var counts: [Int] = []
        for _ in 0..<10 {
            counts.append(
                try await container.performBackgroundTask { context in
                    try context.count(for: MemberEntity.fetchRequest())
                })
        }
        for _ in 0..<10 {
            let context = container.newBackgroundContext()
            counts.append(try context.count(for: MemberEntity.fetchRequest()))
        }
        #expect(counts == [Int](repeating: 1, count: 20))
        // The view context's connection and four pooled ones.
        #expect(try Self.sessions(store) == 5)
    }

    @Test(
        "the pool size is the description's connectionPoolMaxSize; 0 shares the view context's connection",
        arguments: [0, 1, 2, 6])
    func poolSizeIsConfigurable(size: Int) async throws {
        let store = try PostgresConnectionLossTests.DroppableStore(connectionPoolMaxSize: size)
        defer { store.cleanUp() }
        #expect(store.container.persistentStoreDescriptions.first?.connectionPoolMaxSize == size)
        let member = MemberEntity(context: store.context)
        member.name = "one"
        try store.context.save()
        let container = store.container
        var contexts: [ManagedObjectContext] = []
        for index in 0..<10 {
            let context = container.newBackgroundContext()
            let added = MemberEntity(context: context)
            added.name = "background \(index)"
            try context.save()
            contexts.append(context)
        }
        let total = try await container.performBackgroundTask { context in
            try context.count(for: MemberEntity.fetchRequest())
        }
        #expect(total == 11)
        #expect(try Self.sessions(store) == Int64(1 + size))
    }

    @Test("a description's connectionPoolMaxSize reaches the store loaded from it")
    func descriptionSetsThePoolSize() throws {
        let fresh = try PostgresTestServer.freshSchema()
        defer { PostgresTestServer.drop(schema: fresh.name) }
        let sessionName = "pool_" + fresh.name
        let url = try #require(URL(string: fresh.url.absoluteString + "&application_name=" + sessionName))
        let container = PersistentContainer(name: "Members", managedObjectModel: MembersModel.model)
        let description = PersistentStoreDescription(url: url)
        description.connectionPoolMaxSize = 1
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        for _ in 0..<5 {
            _ = try container.newBackgroundContext().count(for: MemberEntity.fetchRequest())
        }
        let observer = try PostgresConnection(url: fresh.url.absoluteString)
        let result = try observer.query(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1", [.text(sessionName)])
        #expect(result[0, 0] == .int(2), "the view context's connection and one pooled")
    }
}

/// A save run on a thread of its own; ``result()`` waits for it and returns its error, if any. The context is used
/// by that thread only, until it signals.
final class BlockedSave: @unchecked Sendable {  // safe: `outcome` is only touched under `condition`
    private let context: ManagedObjectContext
    private let condition = NSCondition()
    private var outcome: (any Error)??

    init(context: ManagedObjectContext) {
        self.context = context
    }

    func start() {
        Thread { [self] in
            var failure: (any Error)?
            do { try context.save() } catch { failure = error }
            condition.lock()
            outcome = .some(failure)
            condition.broadcast()
            condition.unlock()
        }.start()
    }

    /// The save's error, or `nil` once it succeeded.
    func result() -> (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return outcome ?? nil
    }

    /// Waits for the save to end (whatever its outcome).
    func finish() {
        _ = result()
    }
}
