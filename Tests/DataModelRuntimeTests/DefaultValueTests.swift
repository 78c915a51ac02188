import DataModelRuntime
import Testing

/// Generated code carries typed defaults, parsed once by the generator: `Models/Members` has an
/// `Integer 32` default of `" 5"` and a `Double` default of `" 2.5 "`, and a new object reads 5 and
/// 2.5 (the validator accepts both: `DataModelCodegenTests.DefaultValueAgreementTests`).
@Suite struct DefaultValueTests {
    @Test(arguments: StoreKind.allCases) func paddedModelDefaultsReadAsTheirValues(kind: StoreKind) throws {
        let store = try TestStore(kind, model: MembersModel.model)
        defer { store.cleanUp() }
        let member = MemberEntity(context: store.context)
        #expect(member.rating == 5)
        #expect(member.score == 2.5)
        member.name = "Ada"
        try store.context.save()
        let read = try #require(try store.reopened().fetch(MemberEntity.fetchRequest()).first)
        #expect(read.rating == 5)
        #expect(read.score == 2.5)
    }

    @Test func theModelDescriptionCarriesTypedValues() throws {
        let entity = try #require(MembersModel.model.entity(named: "MemberEntity"))
        let defaults = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0.defaultValue) })
        #expect(defaults["rating"] == .some(.integer(5)))
        #expect(defaults["score"] == .some(.double(2.5)))
    }
}

/// A description written with a text default still compiles (deprecated) and reads it with the one parser.
@Suite struct TextDefaultCompatibilityTests {
    @available(*, deprecated)
    @Test func aTextDefaultIsParsedByTheOneParser() {
        #expect(AttributeDescription(name: "n", type: .integer32, defaultValue: " 5").defaultValue == .integer(5))
        #expect(AttributeDescription(name: "d", type: .double, defaultValue: " 2.5 ").defaultValue == .double(2.5))
        #expect(AttributeDescription(name: "x", type: .integer32, defaultValue: "five").defaultValue == nil)
    }
}
