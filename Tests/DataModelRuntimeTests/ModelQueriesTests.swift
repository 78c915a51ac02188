import DataModelRuntime
import Foundation
import Testing

/// The model's own queries (Models/Teams): fetch request templates, fetched properties, derived attributes.
@Suite("Model queries: fetch request templates")
struct FetchRequestTemplateTests {
    private func seed(_ context: ManagedObjectContext) throws -> (red: Team, blue: Team) {
        let red = Team(context: context)
        red.name = "Red"
        let blue = Team(context: context)
        blue.name = "Blue"
        for (name, hours, team) in [
            ("Ada", 45, red), ("Åsa", 20, red), ("Bob", 50, blue), ("adam", 10, blue), ("Cleo", 41, red),
        ] {
            let member = Member(context: context)
            member.name = name
            member.hours = Int32(hours)
            member.team = team
        }
        return (red, blue)
    }

    @Test("a template's typed function substitutes its variables", arguments: StoreKind.allCases)
    func typedFunction(kind: StoreKind) throws {
        let store = try TestStore(kind, model: TeamsModel.model)
        defer { store.cleanUp() }
        _ = try seed(store.context)
        try store.context.save()
        let context = try store.reopened()
        let named = try context.fetch(Member.fetchRequestMembersNamed(prefix: "a").sorted(by: [SortDescriptor(\.name)]))
        // [cd]: "Åsa" begins with "a" once case and diacritics are folded.
        #expect(named.map(\.name) == ["Ada", "adam", "Åsa"])
        let red = try context.fetch(
            Member.fetchRequestMembersOfTeam(minimumHours: 41, teamName: "Red").sorted(by: [SortDescriptor(\.name)]))
        #expect(red.map(\.name) == ["Ada", "Cleo"])
        #expect(Member.fetchRequestMembersOfTeam(minimumHours: 0, teamName: nil).fetchLimit == 100)
        #expect(try context.fetch(Team.fetchRequestAllTeams()).count == 2)
    }

    @Test("the model's templates, by name, with a dictionary of variables")
    func dynamicTemplates() throws {
        let store = try TestStore(.inMemory, model: TeamsModel.model)
        let (red, _) = try seed(store.context)
        let model = TeamsModel.model
        #expect(model.fetchRequestTemplate(named: "membersNamed")?.variables == ["PREFIX"])
        #expect(model.fetchRequestTemplate(named: "nothing") == nil)
        #expect(model.fetchRequestFromTemplate(withName: "nothing") == nil)
        let request = try #require(
            model.fetchRequestFromTemplate(
                withName: "membersOfTeam", substitutionVariables: ["TEAM_NAME": "Red", "MINIMUM_HOURS": 30]))
        let found = try store.context.fetch(request)
        #expect(Set(found.compactMap { $0.value(forKey: "name") as? String }) == ["Ada", "Cleo"])
        #expect(found.allSatisfy { ($0 as? Member)?.team === red })
        // Typed, with the reasons a request cannot be made.
        #expect(
            throws: FetchRequestTemplateError.badVariable(
                template: "membersNamed", variable: "PREFIX", reason: "has no value")
        ) {
            try model.checkedFetchRequest(fromTemplate: "membersNamed", as: Member.self)
        }
        #expect(throws: FetchRequestTemplateError.self) {
            try model.checkedFetchRequest(fromTemplate: "allTeams", as: Member.self)
        }
        let objects = try model.checkedFetchRequest(
            fromTemplate: "membersNamed", substitutionVariables: ["PREFIX": "c"], as: Member.self)
        #expect(try store.context.fetch(objects).map(\.name) == ["Cleo"])
    }

    @Test("a template whose variable is an object")
    func objectVariable() throws {
        let model = ManagedObjectModel(
            name: "Teams", entities: TeamsModel.model.entities,
            fetchRequestTemplates: [
                FetchRequestTemplateDescription(
                    name: "membersOf", entityName: "Member", predicateFormat: "team == $TEAM AND hours > $MIN")
            ])
        let store = try TestStore(.inMemory, model: model)
        let (red, blue) = try seed(store.context)
        let request = model.fetchRequest(
            fromTemplate: "membersOf", substitutionVariables: ["TEAM": blue, "MIN": 15], as: Member.self)
        #expect(try store.context.fetch(request).map(\.name) == ["Bob"])
        try store.context.save()
        let saved = model.fetchRequest(
            fromTemplate: "membersOf", substitutionVariables: ["TEAM": red.objectID, "MIN": 0], as: Member.self)
        #expect(Set(try store.context.fetch(saved).compactMap(\.name)) == ["Ada", "Åsa", "Cleo"])
    }
}

@Suite("Model queries: fetched properties")
struct FetchedPropertyTests {
    @Test("evaluated on first access, cached, refreshed by refresh(_:mergeChanges:)", arguments: [false, true])
    func cachedUntilRefresh(mergeChanges: Bool) throws {
        let store = try TestStore(.sqlite, model: TeamsModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let team = Team(context: context)
        team.name = "Red"
        for (name, hours) in [("Ada", 45), ("Bob", 12)] {
            let member = Member(context: context)
            member.name = name
            member.hours = Int32(hours)
            member.team = team
        }
        try context.save()
        #expect(team.busyMembers.map(\.name) == ["Ada"])
        // Through key-value coding too, the same cached array.
        #expect((team.value(forKey: "busyMembers") as? [ManagedObject])?.count == 1)

        let cleo = Member(context: context)
        cleo.name = "Cleo"
        cleo.hours = 60
        cleo.team = team
        try context.save()
        // Not a relationship: the value stays what the first access fetched …
        #expect(team.busyMembers.map(\.name) == ["Ada"])
        // … until the object is refreshed.
        context.refresh(team, mergeChanges: mergeChanges)
        #expect(Set(team.busyMembers.compactMap(\.name)) == ["Ada", "Cleo"])
        #expect(throws: KeyValueError.self) { try team.setCheckedValue([cleo], forKey: "busyMembers") }
    }

    @Test("$FETCH_SOURCE key paths and $FETCHED_PROPERTY.userInfo are substituted")
    func variables() throws {
        var entities = TeamsModel.model.entities
        let teamIndex = try #require(entities.firstIndex { $0.name == "Team" })
        entities[teamIndex].fetchedProperties = [
            FetchedPropertyDescription(
                name: "namesakes", destinationEntityName: "Member",
                predicateFormat: "teamName == $FETCH_SOURCE.name AND name BEGINSWITH $FETCHED_PROPERTY.userInfo.prefix",
                userInfo: ["prefix": "A"]),
            FetchedPropertyDescription(
                name: "broken", destinationEntityName: "Member", predicateFormat: "name == $SOMETHING"),
        ]
        let store = try TestStore(.inMemory, model: ManagedObjectModel(name: "Teams", entities: entities))
        let context = store.context
        let team = try #require(context.insertNewObject(forEntityName: "Team") as? Team)
        team.name = "Red"
        for name in ["Ada", "Bob", "Anna"] {
            let member = Member(context: context)
            member.name = name
            member.team = team
        }
        try context.save()  // derives each member's teamName
        #expect(Set(team.fetchedObjects(for: "namesakes", as: Member.self).compactMap(\.name)) == ["Ada", "Anna"])
        #expect(throws: FetchedPropertyError.self) { try team.checkedFetchedObjects(forKey: "broken") }
        #expect(throws: FetchedPropertyError.unknownProperty(entity: "Team", name: "none")) {
            try team.checkedFetchedObjects(forKey: "none")
        }
    }
}

@Suite("Model queries: derived attributes")
struct DerivedAttributeTests {
    @Test(
        "aggregates over a to-many follow inserts, moves and deletes of related objects", arguments: StoreKind.allCases)
    func aggregates(kind: StoreKind) throws {
        let store = try TestStore(kind, model: TeamsModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let red = Team(context: context)
        red.name = "Red Team"
        let blue = Team(context: context)
        blue.name = "Blue"
        #expect(red.memberCount == nil)  // nothing computed before the save
        try context.save()
        #expect(red.memberCount == 0)
        #expect(red.totalHours == 0)
        #expect(red.averageHours == nil)
        #expect(red.upperName == "RED TEAM")

        var members: [Member] = []
        for hours in [10, 20, 60] {
            let member = Member(context: context)
            member.name = "M\(hours)"
            member.hours = Int32(hours)
            member.team = red
            members.append(member)
        }
        try context.save()
        #expect(red.memberCount == 3)
        #expect(red.totalHours == 90)
        #expect(red.averageHours == 30)
        #expect(red.shortestHours == 10)
        #expect(red.longestHours == 60)
        #expect(blue.memberCount == 0)

        // A member moves: both teams change, though neither was touched.
        members[2].team = blue
        try context.save()
        #expect(red.memberCount == 2)
        #expect(red.totalHours == 30)
        #expect(blue.memberCount == 1)
        #expect(blue.totalHours == 60)

        // A member's hours change: its team's sum follows.
        members[0].hours = 15
        try context.save()
        #expect(red.totalHours == 35)

        // A deletion.
        context.delete(members[1])
        try context.save()
        #expect(red.memberCount == 1)
        #expect(red.longestHours == 15)

        // The values are stored in their columns: another context (or another container on the file) reads them.
        let other = try store.reopened()
        let teams = try other.fetch(Team.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(teams.map(\.memberCount) == [1, 1])
        #expect(teams.map(\.totalHours) == [60, 15])
        // And a fetch can filter on them.
        let busy = try other.fetch(Team.fetchRequest().filtered(by: ManagedPredicate(format: "totalHours > 20")))
        #expect(busy.map(\.name) == ["Blue"])
    }

    @Test("key paths through a to-one, string functions and now()")
    func pathsAndFunctions() throws {
        let store = try TestStore(.sqlite, model: TeamsModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let team = Team(context: context)
        team.name = "Ünïcode"
        let member = Member(context: context)
        member.name = "Éloïse Martin"
        member.team = team
        let before = Date()
        try context.save()
        #expect(member.searchName == "eloise martin")
        #expect(member.teamName == "Ünïcode")
        let stamped = try #require(team.updatedAt)
        #expect(stamped >= before.addingTimeInterval(-1) && stamped <= Date().addingTimeInterval(1))

        // Renaming the team changes its members' derived team name at the next save.
        team.name = "Renamed"
        try context.save()
        #expect(member.teamName == "Renamed")
        #expect(team.upperName == "RENAMED")
        let reopened = try store.reopened()
        let stored = try #require(try reopened.fetch(Member.fetchRequest()).first)
        #expect(stored.teamName == "Renamed")
        #expect(stored.searchName == "eloise martin")
    }

    @Test("user code cannot set a derived attribute")
    func readOnly() throws {
        let store = try TestStore(.inMemory, model: TeamsModel.model)
        let team = Team(context: store.context)
        #expect(throws: KeyValueError.self) { try team.setCheckedValue(Int64(5), forKey: "memberCount") }
        team.name = "A"
        try store.context.save()
        #expect(team.memberCount == 0)
        #expect(team.value(forKey: "memberCount") as? Int64 == 0)
    }

    @Test("a child context's save leaves deriving to the save that reaches the store")
    func childContext() throws {
        let store = try TestStore(.inMemory, model: TeamsModel.model)
        let parent = store.context
        let team = Team(context: parent)
        team.name = "Red"
        try parent.save()
        let child = ManagedObjectContext(parent: parent)
        let childTeam = try #require(try child.existingObject(with: team.objectID) as? Team)
        let member = Member(context: child)
        member.hours = 8
        member.team = childTeam
        try child.save()
        #expect(team.memberCount == 0)
        try parent.save()
        #expect(team.memberCount == 1)
        #expect(team.totalHours == 8)
    }
}

/// Core Data keeps derived attributes in the store, so batch requests (which bypass contexts) keep them too; here
/// they are computed in the batch request's transaction with the save's rules.
@Suite("Model queries: derived attributes of batch requests")
struct BatchDerivedAttributeTests {
    /// Red (Ada 45, Bob 20) and Blue (Cy 50), saved; the store and the teams by name.
    private func seeded(_ kind: StoreKind) throws -> (TestStore, red: Team, blue: Team) {
        let store = try TestStore(kind, model: TeamsModel.model)
        let context = store.context
        let red = Team(context: context)
        red.name = "Red"
        let blue = Team(context: context)
        blue.name = "Blue"
        for (name, hours, team) in [("Ada", 45, red), ("Bob", 20, red), ("Cy", 50, blue)] {
            let member = Member(context: context)
            member.name = name
            member.hours = Int32(hours)
            member.team = team
        }
        try context.save()
        return (store, red, blue)
    }

    /// The teams as another context reads them from the store: name, count, total, longest.
    private func storedTeams(_ store: TestStore) throws -> [String] {
        try store.reopened().fetch(Team.fetchRequest().sorted(by: [SortDescriptor(\.name)])).map {
            "\($0.name ?? "") \($0.memberCount ?? -1) \($0.totalHours ?? -1) \($0.longestHours ?? -1) \($0.upperName ?? "")"
        }
    }

    @Test("a batch insert computes the inserted rows' derived attributes", arguments: StoreKind.allCases)
    func batchInsert(kind: StoreKind) throws {
        let (store, _, _) = try seeded(kind)
        defer { store.cleanUp() }
        let context = store.context
        try context.execute(
            BatchInsertRequest(entityName: "Member", objects: [["name": "Éloïse", "hours": 3], ["name": "Zoë"]]))
        try context.execute(BatchInsertRequest(entityName: "Team", objects: [["name": "Green"]]))
        let members = try store.reopened().fetch(
            Member.fetchRequest().filtered(by: ManagedPredicate(format: "team == nil")).sorted(by: [
                SortDescriptor(\.name)
            ]))
        #expect(members.map(\.searchName) == ["zoe", "eloise"])  // sorted by name: "Zoë" < "Éloïse"
        #expect(members.map(\.name) == ["Zoë", "Éloïse"])
        #expect(members.map(\.teamName) == [nil, nil])
        #expect(try storedTeams(store) == ["Blue 1 50 50 BLUE", "Green 0 0 -1 GREEN", "Red 2 65 45 RED"])
    }

    @Test(
        "a batch update recomputes the updated rows and the rows whose derivations read them",
        arguments: StoreKind.allCases)
    func batchUpdate(kind: StoreKind) throws {
        let (store, red, _) = try seeded(kind)
        defer { store.cleanUp() }
        let context = store.context
        let result = try context.execute(
            BatchUpdateRequest<Member>(predicate: ManagedPredicate(format: "name == %@", "Bob")).setting(
                \.hours, to: 60))
        // Red's aggregates follow, and the executing context sees them (the result's changes name Red too).
        #expect(result.changes.updated.contains(red.objectID))
        #expect(red.totalHours == 105)
        #expect(red.longestHours == 60)
        #expect(try storedTeams(store) == ["Blue 1 50 50 BLUE", "Red 2 105 60 RED"])

        // Renaming a team by batch update renames its members' derived team name.
        try context.execute(
            BatchUpdateRequest<Team>(predicate: ManagedPredicate(format: "name == %@", "Blue")).setting(
                \.name, to: "Navy"))
        let cy = try #require(
            try store.reopened().fetch(Member.fetchRequest().filtered(by: ManagedPredicate(format: "name == 'Cy'")))
                .first)
        #expect(cy.teamName == "Navy")
        #expect(try storedTeams(store) == ["Navy 1 50 50 NAVY", "Red 2 105 60 RED"])
    }

    @Test("a batch delete recomputes the rows whose derivations read the deleted rows", arguments: StoreKind.allCases)
    func batchDelete(kind: StoreKind) throws {
        let (store, _, blue) = try seeded(kind)
        defer { store.cleanUp() }
        let context = store.context
        try context.execute(BatchDeleteRequest<Member>(predicate: ManagedPredicate(format: "hours > %d", 40)))
        #expect(try storedTeams(store) == ["Blue 0 0 -1 BLUE", "Red 1 20 20 RED"])
        #expect(blue.memberCount == 0)
        #expect(try store.reopened().fetch(Member.fetchRequest()).map(\.teamName) == ["Red"])
    }
}
