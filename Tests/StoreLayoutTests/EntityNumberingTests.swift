import DataModelStoreLayout
import Testing

@Suite("Entity numbering and Z_PRIMARYKEY")
struct EntityNumberingTests {
    /// DESIGN.md: `1|Car|0`, `2|SportCar|1`, `3|ExpensiveSportCar|2`, `4|Person|0`.
    @Test func carsAndPeople() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Person"),
                entity("SportCar", parent: "Car"),
                entity("ExpensiveSportCar", parent: "SportCar"),
                entity("Car"),
            ]))
        #expect(layout.primaryKeyListing == ["1|Car|0", "2|SportCar|1", "3|ExpensiveSportCar|2", "4|Person|0"])
        #expect(layout.primaryKeyRows.allSatisfy { $0.maximumPrimaryKey == 0 })
        let car = try #require(layout.entity(named: "Car"))
        #expect(car.subentityNumbers == [2])
        #expect(car.hierarchyNumbers == 1...3)
        #expect(car.entityNumbersForFetch == [1, 2, 3])
        #expect(car.isRoot && car.hasSubentities)
        let sport = try #require(layout.entity(named: "SportCar"))
        #expect(sport.hierarchyNumbers == 2...3)
        #expect(sport.tableName == "ZCAR")
        #expect(sport.rootEntityNumber == 1)
        #expect(layout.entity(named: "ExpensiveSportCar")?.hasSubentities == false)
        #expect(layout.entity(number: 4)?.name == "Person")
        #expect(layout.entity(number: 0) == nil)
        #expect(layout.entity(number: 5) == nil)
        #expect(layout.entityTables.map(\.name) == ["ZCAR", "ZPERSON"])
    }

    /// DESIGN.md: `4|Document|0`, `5|ArtistDocument|4`, `6|ShowDocument|4`, `7|Image|0`,
    /// `8|InstallShotImage|7`, `9|LocalImage|7`.
    @Test func documentsAndImages() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("LocalImage", parent: "Image"),
                entity("ShowDocument", parent: "Document"),
                entity("InstallShotImage", parent: "Image"),
                entity("Image"),
                entity("ArtistDocument", parent: "Document"),
                entity("Document", abstract: true),
                entity("Artwork"), entity("Artist"), entity("Album"),
            ]))
        #expect(
            layout.primaryKeyListing == [
                "1|Album|0", "2|Artist|0", "3|Artwork|0", "4|Document|0", "5|ArtistDocument|4", "6|ShowDocument|4",
                "7|Image|0", "8|InstallShotImage|7", "9|LocalImage|7",
            ])
        #expect(layout.entity(named: "Document")?.isAbstract == true)
        #expect(layout.entity(named: "Image")?.subentityNumbers == [8, 9])
    }

    /// macOS's AddressBook store (`Z_PRIMARYKEY` of AddressBook-v22.abcddb): sorting is
    /// case-insensitive (`ABCDUnknownProperty` before `ABCDURLAddress`), and sub-entities
    /// follow their parent at every depth.
    @Test func addressBookNumbering() throws {
        let layout = try StoreLayout(model: AddressBookModel.model)
        #expect(
            layout.primaryKeyListing == [
                "1|ABCDAddressingGrammar|0", "2|ABCDAlertTone|0", "3|ABCDCalendarURI|0", "4|ABCDContactDate|0",
                "5|ABCDContactIndex|0", "6|ABCDCustomProperty|0", "7|ABCDCustomPropertyValue|0",
                "8|ABCDDateComponents|0", "9|ABCDDeletedRecordLog|0", "10|ABCDDistributionListConfig|0",
                "11|ABCDEmailAddress|0", "12|ABCDLikeness|0", "13|ABCDMessagingAddress|0", "14|ABCDNote|0",
                "15|ABCDPhoneNumber|0", "16|ABCDPostalAddress|0", "17|ABCDRecord|0", "18|ABCDAbstractGroup|17",
                "19|ABCDGroup|18", "20|ABCDSubscribedGroup|19", "21|ABCDSmartGroup|18", "22|ABCDContact|17",
                "23|ABCDSubscribedContact|22", "24|ABCDInfo|17", "25|CNCDContainer|17", "26|ABCDRelatedName|0",
                "27|ABCDRemoteLocation|0", "28|ABCDService|0", "29|ABCDSocialProfile|0", "30|ABCDUnknownProperty|0",
                "31|ABCDURLAddress|0", "32|CNCDChangeHistoryClient|0", "33|CNCDProviderMetadata|0",
                "34|CNCDUnifiedContactInfo|0",
            ])
        #expect(layout.entity(named: "ABCDRecord")?.hierarchyNumbers == 17...25)
        #expect(layout.entity(named: "ABCDAbstractGroup")?.hierarchyNumbers == 18...21)
    }

    @Test func namesDifferingOnlyInCaseSortByExactSpellingAfterwards() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [entity("beta"), entity("Alpha"), entity("alpha"), entity("Beta")]))
        #expect(layout.primaryKeyRows.map(\.name) == ["Alpha", "alpha", "Beta", "beta"])
        // Both pairs upper-case to the same table name: the later one gets a suffix.
        #expect(layout.entityTables.map(\.name) == ["ZALPHA", "ZALPHA1", "ZBETA", "ZBETA1"])
    }

    @Test func deepChainIsNumberedWithoutRecursion() throws {
        let depth = 5_000
        let entities = (0..<depth).map { entity("E\($0)", parent: $0 == 0 ? nil : "E\($0 - 1)") }
        let layout = try StoreLayout(model: LayoutModel(entities: entities.reversed()))
        #expect(layout.entities.count == depth)
        #expect(layout.entity(named: "E4999")?.number == depth)
        #expect(layout.entity(named: "E0")?.hierarchyNumbers == 1...depth)
        #expect(layout.entityTables.count == 1)
    }

    @Test func emptyModelHasOnlySystemTables() throws {
        let layout = try StoreLayout(model: LayoutModel(entities: []))
        #expect(layout.entities.isEmpty)
        #expect(layout.tables.map(\.name) == ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"])
        #expect(layout.indexes.isEmpty)
    }

    @Test func layoutIsIndependentOfEntityOrder() throws {
        let shuffled = LayoutModel(entities: companyModel.entities.reversed())
        let first = try StoreLayout(model: companyModel)
        let second = try StoreLayout(model: shuffled)
        #expect(first == second)
        #expect(first.ddlStatements() == second.ddlStatements())
    }
}
