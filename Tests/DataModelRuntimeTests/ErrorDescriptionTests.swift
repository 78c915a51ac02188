import DataModelRuntime
import Foundation
import SQLiteKit
import Testing

/// Every public error's `localizedDescription` (what apps show and log) names what failed, as its `description`
/// does, instead of Foundation's "The operation could not be completed".
@Suite("Errors describe themselves through Foundation")
struct ErrorDescriptionTests {
    @Test func validationErrorNamesEntityPropertyAndRule() throws {
        let store = try TestStore(.inMemory, model: SaveAtomicityTests.strictModel)
        defer { store.cleanUp() }
        let account = try store.context.insertNewObject(forEntityName: "Account")
        let error = #expect(throws: ValidationError.self) { try store.context.save() }
        let text = (error as (any Error)?)?.localizedDescription ?? ""
        #expect(text == error?.description)
        #expect(text.contains("Account.name"), "\(text)")
        // Which of several objects of the entity failed: its ID, as `ObjectID` prints it.
        #expect(text.contains("(\(account.objectID))"), "\(text)")
        #expect(!text.contains("could not be completed"))
    }

    @Test func storeAndSQLiteErrorsDescribeThemselves() {
        let sqlite = SQLiteError(extendedResultCode: 5, message: "database is locked", sql: "BEGIN IMMEDIATE")
        #expect((sqlite as any Error).localizedDescription == sqlite.description)
        #expect(sqlite.localizedDescription.contains("database is locked"))
        let store = StoreError.sqlite(sqlite)
        #expect((store as any Error).localizedDescription == store.description)
        let unknown = StoreError.unknownEntity("Ghost")
        #expect((unknown as any Error).localizedDescription.contains("Ghost"))
    }
}
