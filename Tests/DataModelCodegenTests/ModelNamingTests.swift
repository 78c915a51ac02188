import DataModelCodegen
import DataModelNaming
import Testing

@Suite("Model naming")
struct ModelNamingTests {
    /// Names that break a declaration or `extension <name>` unless escaped (`each` found by a keyword sweep
    /// of the generated Core Data flavor through `swiftc -parse`).
    @Test(arguments: ["class", "Type", "Self", "Protocol", "Any", "some", "any", "each", "_"])
    func contextualKeywordsAreEscaped(_ name: String) {
        #expect(ModelNaming.escaped(name) == "`\(name)`")
    }

    @Test(arguments: ["copy", "consume", "package", "Item", "eachItem"])
    func ordinaryNamesAreNot(_ name: String) {
        #expect(ModelNaming.escaped(name) == name)
    }

    @Test func classNamesDropModulePrefixes() {
        #expect(ModelNaming.className(entityName: "Person", representedClassName: nil) == "Person")
        #expect(ModelNaming.className(entityName: "Person", representedClassName: "") == "Person")
        #expect(ModelNaming.className(entityName: "Person", representedClassName: "MyApp.PersonMO") == "PersonMO")
        #expect(ModelNaming.className(entityName: "Person", representedClassName: ".PersonMO") == "PersonMO")
        #expect(ModelNaming.className(entityName: "Person", representedClassName: "MyApp.") == "Person")
        // Older Xcode's "no custom class" is the generic class of each flavor.
        #expect(
            ModelNaming.className(entityName: "Person", representedClassName: "NSManagedObject", flavor: .runtime)
                == "ManagedObject")
        #expect(
            ModelNaming.className(entityName: "Person", representedClassName: "NSManagedObject", flavor: .coredata)
                == "NSManagedObject")
    }

    @Test func outputFilesFollowCodeGenerationAndFlavor() {
        let entities: [ModelNaming.EntityFacts] = [
            .init(name: "B", representedClassName: "App.BClass", codeGeneration: .class),
            .init(name: "A", representedClassName: nil, codeGeneration: .category),
            .init(name: "M", representedClassName: nil, codeGeneration: .manual),
            // A second entity of the same class: the first one's files win.
            .init(name: "B2", representedClassName: "BClass", codeGeneration: .class),
        ]
        let coredata = ModelNaming.outputFiles(
            modelName: "Shop", entities: entities, flavor: .coredata, includeManual: false)
        #expect(
            coredata.map(\.name) == [
                "A+CoreDataProperties.swift", "BClass+CoreDataClass.swift", "BClass+CoreDataProperties.swift",
            ])
        #expect(coredata.map(\.kind) == [.entityProperties(1), .entityClass(0), .entityProperties(0)])
        let runtime = ModelNaming.outputFiles(
            modelName: "Shop", entities: entities, flavor: .runtime, includeManual: true)
        #expect(
            runtime.map(\.name) == [
                "A+DataModelProperties.swift", "BClass+DataModelClass.swift", "BClass+DataModelProperties.swift",
                "M+DataModelClass.swift", "M+DataModelProperties.swift", "Shop+DataModel.swift",
            ])
        let xcodeCompatible = ModelNaming.outputFiles(
            modelName: "Shop", entities: entities, flavor: .runtime, includeManual: false, xcodeCompatible: true)
        #expect(
            xcodeCompatible.map(\.name) == [
                "A+CoreDataProperties.swift", "BClass+CoreDataClass.swift", "BClass+CoreDataProperties.swift",
                "Shop+DataModel.swift",
            ])
    }

    @Test func entitiesOfTheGenericClassGetNoFiles() {
        // Older models' "no custom class": NSManagedObject, the runtime's ManagedObject. Xcode writes no class.
        let entities: [ModelNaming.EntityFacts] = [
            .init(name: "Note", representedClassName: "NSManagedObject", codeGeneration: .class),
            .init(name: "Tag", representedClassName: "NSManagedObject", codeGeneration: .manual),
            .init(name: "Book", representedClassName: "Book", codeGeneration: .class),
        ]
        for flavor in [ModelNaming.Flavor.coredata, .runtime] {
            let files = ModelNaming.outputFiles(
                modelName: "Shelf", entities: entities, flavor: flavor, includeManual: true
            ).map(\.name)
            #expect(!files.contains { $0.hasPrefix("NSManagedObject") || $0.hasPrefix("ManagedObject") })
            #expect(files.contains { $0.hasPrefix("Book") })
        }
        #expect(ModelNaming.isGenericClass("NSManagedObject", flavor: .coredata))
        #expect(ModelNaming.isGenericClass("ManagedObject", flavor: .runtime))
        // A class the user named ManagedObject is the user's in the Core Data flavor.
        #expect(!ModelNaming.isGenericClass("ManagedObject", flavor: .coredata))
    }

    @Test func versionsInNaturalOrder() {
        let entries = ["Model 10.xcdatamodel", ".xccurrentversion", "Model.xcdatamodel", "Model 9.xcdatamodel", "x"]
        #expect(ModelNaming.versionNames(amongEntries: entries) == ["Model", "Model 9", "Model 10"])
        // Runs of digits beyond Int's range still compare as numbers.
        #expect(ModelNaming.naturalOrder("v 99999999999999999999", "v 100000000000000000000"))
        #expect(ModelNaming.chosenVersion(among: ["A", "B"], pinned: "A.xcdatamodel", current: "B") == "A")
        #expect(ModelNaming.chosenVersion(among: ["A", "B"], pinned: "C", current: "B") == nil)
        #expect(ModelNaming.chosenVersion(among: ["A", "B"], pinned: nil, current: "A") == "A")
        #expect(ModelNaming.chosenVersion(among: ["A", "B"], pinned: nil, current: "C") == "B")
    }

    @Test func accessorNames() {
        #expect(ModelNaming.Accessor.addTo.name(capitalizedName: "Items") == "addToItems")
        #expect(
            ModelNaming.Accessor.replaceAtIndexesSelector.name(capitalizedName: "Items")
                == "replaceItemsAtIndexes:withItems:")
        #expect(
            ModelNaming.Accessor.insertObjectSelector.name(capitalizedName: "Items") == "insertObject:inItemsAtIndex:")
    }
}
