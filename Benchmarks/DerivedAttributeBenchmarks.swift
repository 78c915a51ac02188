import DataModelRuntime
import Foundation

/// Inserting members into teams with the `Teams` model's derived attributes (a member's `canonical:(name)` and
/// `team.name`; a team's `@count`, `@sum`, `@avg`, `@min`, `@max` of its members' hours, `now()`,
/// `uppercase:(name)`) against the same inserts into the same tables with the attributes plain (never set).
enum DerivedAttributeBenchmarks {
    static let members = 10_000
    static let teams = 100

    static func run(_ suite: inout BenchmarkSuite) throws {
        guard suite.wants("derived") else { return }
        let plain = model(derived: false)
        let derived = model(derived: true)
        var counts = (0, 0)
        var computed: Int64 = 0
        let times = try suite.compare(
            baseline: { counts.0 = try insert(model: plain).count },
            ours: {
                let result = try insert(model: derived)
                counts.1 = result.count
                computed = result.memberTotal
            })
        if counts.0 != members || counts.1 != members || computed != Int64(members) {
            suite.fail("derived: \(counts.0) and \(counts.1) members inserted, teams count \(computed) members")
        }
        suite.record(
            BenchmarkResult(
                name: "insert \(members) members with derived attributes + save", ours: times.ours,
                baseline: times.baseline, target: "report (was 4.7-5.1x)",
                note: "\(teams) teams; baseline: the same model without derivations"))
    }

    /// `datamodelgen-benchmarks --profile derived [MEMBERS]`: our side once, for a profiler.
    static func profile(members count: Int, repeats: Int?) throws {
        let derived = model(derived: true)
        for _ in 0..<max(repeats ?? 1, 1) {
            let result = try insert(model: derived, members: count)
            print("derived: \(result.count) members, teams count \(result.memberTotal)")
        }
    }

    /// Inserts `members` members spread over ``teams`` teams in a new in-memory store and saves once; returns the
    /// members saved and the sum of the teams' `memberCount` (0 without derivations).
    static func insert(model: ManagedObjectModel, members count: Int = members) throws -> (
        count: Int, memberTotal: Int64
    ) {
        let container = try PersistentContainer(model: model, store: .inMemory)
        let context = container.newBackgroundContext()
        var teamObjects: [ManagedObject] = []
        for index in 0..<teams {
            let team = try context.insertNewObject(forEntityName: "Team")
            try team.setCheckedValue("Team \(index)", forKey: "name")
            teamObjects.append(team)
        }
        for index in 0..<count {
            let member = try context.insertNewObject(forEntityName: "Member")
            try member.setCheckedValue("Mémber \(index)", forKey: "name")
            try member.setCheckedValue(Int32(index % 60), forKey: "hours")
            try member.setCheckedValue(teamObjects[index % teams], forKey: "team")
        }
        try context.save()
        let saved = try context.count(for: FetchRequest<ManagedObject>(entityName: "Member"))
        let total = teamObjects.reduce(Int64(0)) { $0 + ((try? $1.checkedValue(forKey: "memberCount")) as? Int64 ?? 0) }
        return (saved, total)
    }

    /// The `Teams` model (Models/Teams.xcdatamodeld) on the generic object class, with its derived attributes, or
    /// with the same attributes plain.
    static func model(derived: Bool) -> ManagedObjectModel {
        func attribute(_ name: String, _ type: AttributeType, _ expression: String) -> AttributeDescription {
            derived
                ? AttributeDescription(name: name, type: type, isDerived: true, derivationExpression: expression)
                : AttributeDescription(name: name, type: type)
        }
        return ManagedObjectModel(
            name: derived ? "TeamsDerived" : "TeamsPlain",
            entities: [
                EntityDescription(
                    name: "Member", objectType: ManagedObject.self,
                    attributes: [
                        AttributeDescription(
                            name: "hours", type: .integer32, isOptional: false, defaultValue: .integer(0)),
                        AttributeDescription(name: "name", type: .string),
                        attribute("searchName", .string, "canonical:(name)"),
                        attribute("teamName", .string, "team.name"),
                    ],
                    relationships: [
                        RelationshipDescription(
                            name: "team", destinationEntityName: "Team", inverseName: "members", maxCount: 1)
                    ]),
                EntityDescription(
                    name: "Team", objectType: ManagedObject.self,
                    attributes: [
                        attribute("averageHours", .double, "members.@avg.hours"),
                        attribute("longestHours", .integer32, "members.@max.hours"),
                        attribute("memberCount", .integer64, "members.@count"),
                        AttributeDescription(name: "name", type: .string),
                        attribute("shortestHours", .integer32, "members.@min.hours"),
                        attribute("totalHours", .integer64, "members.@sum.hours"),
                        attribute("updatedAt", .date, "now()"),
                        attribute("upperName", .string, "uppercase:(name)"),
                    ],
                    relationships: [
                        RelationshipDescription(
                            name: "members", destinationEntityName: "Member", inverseName: "team", isToMany: true,
                            deleteRule: .cascade)
                    ]),
            ])
    }
}
