import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Core Data's container set-up: `PersistentContainer(name:)`, store descriptions, `loadPersistentStores`.
@Suite("Container set-up")
struct ContainerSetupTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("container-\(UUID().uuidString)")
    }

    @Test func generatedModelsAreFoundByName() throws {
        // Every generated model linked into the test bundle registers itself; hand-written ones do not.
        let known = ManagedObjectModel.knownModelNames
        for name in ["Company", "Members", "Notebook", "Person", "Records", "Restaurants"] {
            #expect(known.contains(name), "\(name) missing from \(known)")
        }
        let company = try ManagedObjectModel.named("Company")
        #expect(company.entities.map(\.name) == CompanyModel.model.entities.map(\.name))
        #expect(company.entity(forName: "EmployeeEntity")?.objectType == EmployeeEntity.self)
        let person = try ManagedObjectModel.named("Person")
        #expect(person.versionName == PersonModel.model.versionName)
    }

    @Test func anUnknownNameNamesTheKnownModels() {
        #expect {
            try ManagedObjectModel.named("Compnay")
        } throws: { error in
            guard case StoreError.unknownModel("Compnay", let known) = error else { return false }
            let message = (error as? StoreError)?.localizedDescription ?? ""
            return known.contains("Company") && message.contains("'Compnay'") && message.contains("'Company'")
        }
    }

    @Test func containerByNameOpensTheDescribedStore() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = PersistentContainer(name: "Company")
        #expect(!container.isLoaded)
        #expect(container.managedObjectModel.name == "Company")
        // The default store: `<name>.sqlite` in the default directory.
        #expect(container.persistentStoreDescriptions.count == 1)
        #expect(container.persistentStoreDescriptions.first?.type == .sqlite)
        #expect(
            container.persistentStoreDescriptions.first?.url
                == PersistentContainer.defaultDirectoryURL().appendingPathComponent("Company.sqlite"))
        // Changed in place, as Core Data users do; the directory is created on loading.
        let url = directory.appendingPathComponent("nested/Company.sqlite")
        container.persistentStoreDescriptions.first?.url = url
        var loaded: [(PersistentStoreDescription, (any Error)?)] = []
        container.loadPersistentStores { description, error in loaded.append((description, error)) }
        #expect(loaded.count == 1)
        #expect(loaded.first?.0.url == url)
        #expect(loaded.first?.1 == nil)
        #expect(container.isLoaded)
        #expect(container.store == .sqlite(at: url))

        let acme = BusinessEntity(context: container.viewContext)
        acme.name = "Acme"
        try container.viewContext.save()
        #expect(FileManager.default.fileExists(atPath: url.path))

        // A second container on the same file sees the saved object.
        let again = PersistentContainer(name: "Company", managedObjectModel: CompanyModel.model)
        again.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try again.loadPersistentStores()
        let names = try again.viewContext.fetch(BusinessEntity.fetchRequest()).map(\.name)
        #expect(names == ["Acme"])
    }

    @Test func anUnknownModelNameIsReportedByLoading() {
        let container = PersistentContainer(name: "NoSuchModel")
        var reported: (any Error)?
        container.loadPersistentStores { _, error in reported = error }
        guard case StoreError.unknownModel("NoSuchModel", let known)? = reported as? StoreError else {
            Issue.record("expected unknownModel, got \(String(describing: reported))")
            return
        }
        #expect(known.contains("Company"))
        #expect(!container.isLoaded)
    }

    @Test func inMemoryDescriptionsAndDevNull() throws {
        for configure in [
            { (description: PersistentStoreDescription) in description.type = .inMemory },
            { (description: PersistentStoreDescription) in description.url = URL(fileURLWithPath: "/dev/null") },
        ] {
            let container = PersistentContainer(name: "Company")
            if let description = container.persistentStoreDescriptions.first { configure(description) }
            try container.loadPersistentStores()
            #expect(container.store == .inMemory)
            _ = BusinessEntity(context: container.viewContext)
            try container.viewContext.save()
            #expect(try container.viewContext.count(for: BusinessEntity.fetchRequest()) == 1)
        }
    }

    @Test func unsupportedDescriptionsAreErrors() {
        let container = PersistentContainer(name: "Company")
        let other = PersistentStoreDescription()
        other.type = PersistentStoreDescription.StoreType(rawValue: "Binary")
        container.persistentStoreDescriptions = [other]
        #expect(
            throws: StoreError.unsupportedStore("store type 'Binary' (the runtime has SQLite, InMemory and PostgreSQL)")
        ) {
            try container.loadPersistentStores()
        }
        let noURL = PersistentStoreDescription()
        container.persistentStoreDescriptions = [noURL]
        #expect(throws: StoreError.self) { try container.loadPersistentStores() }
        // Two stores: the first opens, the second is refused.
        let first = PersistentStoreDescription()
        first.type = .inMemory
        let second = PersistentStoreDescription()
        second.type = .inMemory
        container.persistentStoreDescriptions = [first, second]
        var errors: [Bool] = []
        container.loadPersistentStores { _, error in errors.append(error != nil) }
        #expect(errors == [false, true])
    }

    @Test func migrationFlagsOfTheDescription() throws {
        // A store of Person's first version, opened with the current version: migrated by default, refused when
        // the description turns inference off.
        let url = temporaryDirectory().appendingPathComponent("Person.sqlite")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let first = try #require(PersonModel.versions.first)
        #expect(first.versionName != PersonModel.model.versionName)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try PersistentContainer(model: first, store: .sqlite(at: url))
        let refusing = PersistentContainer(name: "Person")
        refusing.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        refusing.persistentStoreDescriptions.first?.shouldInferMappingModelAutomatically = false
        #expect {
            try refusing.loadPersistentStores()
        } throws: { error in
            if case StoreError.migrationRequired = error { return true }
            return false
        }
        let migrating = PersistentContainer(name: "Person")
        migrating.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try migrating.loadPersistentStores()
        #expect(migrating.isLoaded)
    }

    @Test func defaultDirectoryFollowsXDG() {
        let url = PersistentContainer.defaultDirectoryURL()
        #expect(url.lastPathComponent == ProcessInfo.processInfo.processName)
        #if os(Linux)
            let environment = ProcessInfo.processInfo.environment
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                #expect(url.deletingLastPathComponent().path == URL(fileURLWithPath: data).path)
            } else {
                #expect(url.deletingLastPathComponent().path.hasSuffix("/.local/share"))
            }
        #endif
    }

    @Test func registeredModelsAreFoundByName() throws {
        let model = ManagedObjectModel(
            name: "HandWrittenForContainerTest",
            entities: [EntityDescription(name: "Thing", objectType: ManagedObject.self)])
        ManagedObjectModel.register(model)
        let container = PersistentContainer(name: "HandWrittenForContainerTest")
        container.persistentStoreDescriptions.first?.type = .inMemory
        try container.loadPersistentStores()
        let thing = try container.viewContext.insertNewObject(forEntityName: "Thing")
        #expect(thing.entity.name == "Thing")
    }
}

extension ContainerSetupTests {
    /// Core Data's `name` of a context: nil until set, kept per context.
    @Test func contextsCarryTheNameGivenThem() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        let background = store.container.newBackgroundContext()
        #expect(store.context.name == nil && background.name == nil)
        store.context.name = "viewContext"
        background.name = "importer"
        #expect(store.context.name == "viewContext")
        #expect(background.name == "importer")
    }
}
