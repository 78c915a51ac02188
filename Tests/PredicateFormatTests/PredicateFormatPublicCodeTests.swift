import Foundation
import PredicateFormat
import Testing

/// Format strings as public Core Data code writes them (`NSPredicate(format:)`, `predicateWithFormat:`, SwiftUI's
/// `@FetchRequest(predicate:)`, and the same language where such code filters arrays), each with its arguments and
/// the canonical form it must print as; and the format strings of the corpus models (fetch request templates,
/// fetched properties, derived attributes), read from the corpus when it is present.
///
/// Together with ``PredicateFormatRealWorldTests`` this is the parser's table of real-world strings: `tableSize`
/// checks that it holds at least 150 distinct ones.
@Suite("Predicate format strings from public Core Data code")
struct PredicateFormatPublicCodeTests {
    typealias Case = PredicateFormatRealWorldTests.Case

    static let day = Date(timeIntervalSinceReferenceDate: 700_000_000)
    static let nextDay = day.addingTimeInterval(86_400)
    static let owner = ObjectReference("x-coredata://STORE/Owner/p1")
    static let dayText = #"CAST(700000000.0, "NSDate")"#
    static let nextDayText = #"CAST(700086400.0, "NSDate")"#
    static let ownerText = #"CAST("x-coredata://STORE/Owner/p1", "NSManagedObjectID")"#

    static let predicates: [Case] = [
        // Equality and order, with the argument specifiers.
        Case(
            format: "name == %@ AND money == %i", arguments: ["Asriel", 50],
            canonical: #"name == "Asriel" AND money == 50"#),
        Case(format: "money == %i", arguments: [10_000], canonical: "money == 10000"),
        Case(format: "perimeter > %f", arguments: [3.14159], canonical: "perimeter > 3.14159"),
        Case(format: "due_date < %@", arguments: [day], canonical: "due_date < \(dayText)"),
        Case(format: "%K < %@", arguments: ["due_date", day], canonical: "due_date < \(dayText)"),
        Case(format: "name != %@", arguments: ["Steve Jobs"], canonical: #"name != "Steve Jobs""#),
        Case(format: "money > %i", arguments: [10_000], canonical: "money > 10000"),
        Case(format: "money >= %i", arguments: [10_000], canonical: "money >= 10000"),
        Case(format: "money < %i", arguments: [10_000], canonical: "money < 10000"),
        Case(format: "money <= %i", arguments: [10_000], canonical: "money <= 10000"),
        Case(
            format: "name == %@ OR money >= %i", arguments: ["Steve Jobs", 10_000],
            canonical: #"name == "Steve Jobs" OR money >= 10000"#),
        Case(format: "universe == 'Star Wars'", canonical: #"universe == "Star Wars""#),
        Case(format: "universe == %@", arguments: ["Star Wars"], canonical: #"universe == "Star Wars""#),
        Case(format: "message == 'example'", canonical: #"message == "example""#),
        Case(format: "type == %@", arguments: ["food"], canonical: #"type == "food""#),
        Case(format: "author != %@", arguments: ["app"], canonical: #"author != "app""#),
        Case(format: "remoteID = %@", arguments: ["42"], canonical: #"remoteID == "42""#),
        Case(format: "mediaType == %d", arguments: [1], canonical: "mediaType == 1"),
        Case(format: "facebookId == %@", arguments: ["f1"], canonical: #"facebookId == "f1""#),
        Case(format: "requestId == %@", arguments: ["r1"], canonical: #"requestId == "r1""#),
        Case(format: "SELF == %@", arguments: ["a.txt"], canonical: #"SELF == "a.txt""#),
        Case(format: "count > %d", arguments: [3], canonical: "count > 3"),
        Case(format: "firstName = 'Bob'", canonical: #"firstName == "Bob""#),
        Case(format: "age >= 30", canonical: "age >= 30"),
        Case(format: "grade == \"7\"", canonical: #"grade == "7""#),
        Case(format: "%K = %@", arguments: ["identifier", "i1"], canonical: #"identifier == "i1""#),
        Case(
            format: "%K == %@ AND %K == %@", arguments: ["toProduct.id", "123", "outletId", "7"],
            canonical: #"toProduct.id == "123" AND outletId == "7""#),
        Case(
            format: "%K != 'Закрепленные'", arguments: ["categoryName"], canonical: #"categoryName != "Закрепленные""#),
        Case(format: "%K.%K > %lu", arguments: ["mayor", "age", 30], canonical: "mayor.age > 30"),
        Case(format: "%K >= %@", arguments: ["startDate", day], canonical: "startDate >= \(dayText)"),
        Case(
            format: "owner == %@ AND date >= %@ AND date < %@", arguments: [owner, day, nextDay],
            canonical: "owner == \(ownerText) AND date >= \(dayText) AND date < \(nextDayText)"),
        // Dates and nil.
        Case(format: "fetchDate < %@", arguments: [day], canonical: "fetchDate < \(dayText)"),
        Case(format: "date < %@", arguments: [day], canonical: "date < \(dayText)"),
        Case(
            format: "creationDate > %@ AND creationDate < %@", arguments: [day, nextDay],
            canonical: "creationDate > \(dayText) AND creationDate < \(nextDayText)"),
        Case(
            format: "creationDate >= %@ AND creationDate < %@", arguments: [day, nextDay],
            canonical: "creationDate >= \(dayText) AND creationDate < \(nextDayText)"),
        Case(
            format: "creationDate > %@ && creationDate < %@", arguments: [day, nextDay],
            canonical: "creationDate > \(dayText) AND creationDate < \(nextDayText)"),
        Case(
            format: "lastActionDate == nil OR lastActionDate < %@", arguments: [day],
            canonical: "lastActionDate == nil OR lastActionDate < \(dayText)"),
        Case(
            format: "ruuviTag.uuid == %@ AND date < %@", arguments: ["u1", day],
            canonical: #"ruuviTag.uuid == "u1" AND date < "# + dayText),
        Case(
            format: "%K != nil AND %K <= %@", arguments: ["evictionDate", "evictionDate", day],
            canonical: "evictionDate != nil AND evictionDate <= \(dayText)"),
        Case(
            format: "deletedAt == nil AND completedAt == nil AND list == %d AND dueDate != nil AND dueDate < %@",
            arguments: [0, day],
            canonical:
                "deletedAt == nil AND completedAt == nil AND list == 0 AND dueDate != nil AND dueDate < \(dayText)"
        ),
        Case(format: "parent == NIL", canonical: "parent == nil"),
        Case(
            format: "fieldName == nil OR fieldName.length == 0", canonical: "fieldName == nil OR fieldName.length == 0"),
        Case(
            format: "isDeleted == YES AND serverDeletedAt == nil",
            canonical: "isDeleted == YES AND serverDeletedAt == nil"),
        // Booleans.
        Case(format: "selected = %@", arguments: [true], canonical: "selected == YES"),
        Case(format: "isDeleted == NO", canonical: "isDeleted == NO"),
        Case(format: "isDeletedNote == false", canonical: "isDeletedNote == NO"),
        Case(format: "isdeleted == true", canonical: "isdeleted == YES"),
        Case(format: "isdeleted == %@", arguments: [false], canonical: "isdeleted == NO"),
        Case(
            format: "category == %@ AND isdeleted == false", arguments: ["work"],
            canonical: #"category == "work" AND isdeleted == NO"#),
        Case(
            format: "isFavorite == true AND isdeleted == false", canonical: "isFavorite == YES AND isdeleted == NO"),
        Case(format: "isDeletedLocally == NO", canonical: "isDeletedLocally == NO"),
        Case(
            format: "isDeleted == false AND url == %@", arguments: ["file:///a"],
            canonical: #"isDeleted == NO AND url == "file:///a""#),
        Case(
            format: "marked == YES AND chapter IN %@", arguments: [[1, 2]],
            canonical: "marked == YES AND chapter IN {1, 2}"),
        // String operators.
        Case(format: "name BEGINSWITH %@", arguments: ["Mac"], canonical: #"name BEGINSWITH "Mac""#),
        Case(format: "name BEGINSWITH[c] %@", arguments: ["mac"], canonical: #"name BEGINSWITH[c] "mac""#),
        Case(format: "name CONTAINS %@", arguments: ["Paul"], canonical: #"name CONTAINS "Paul""#),
        Case(format: "name CONTAINS[c] %@", arguments: ["shop"], canonical: #"name CONTAINS[c] "shop""#),
        Case(format: "name ENDSWITH %@", arguments: ["Jobs"], canonical: #"name ENDSWITH "Jobs""#),
        Case(format: "name ENDSWITH[c] %@", arguments: ["jobs"], canonical: #"name ENDSWITH[c] "jobs""#),
        Case(format: "SELF LIKE %@", arguments: ["img?.png"], canonical: #"SELF LIKE "img?.png""#),
        Case(
            format: "SELF MATCHES %@", arguments: [#"img\d{1,3}\.png"#], canonical: #"SELF MATCHES "img\\d{1,3}\\.png""#
        ),
        Case(format: "name LIKE %@", arguments: ["Ada"], canonical: #"name LIKE "Ada""#),
        Case(format: "texto CONTAINS 'iOS'", canonical: #"texto CONTAINS "iOS""#),
        Case(format: "%K CONTAINS[c] %@", arguments: ["title", "y"], canonical: #"title CONTAINS[c] "y""#),
        Case(
            format: "parentCategory.name MATCHES %@", arguments: ["Home"],
            canonical: #"parentCategory.name MATCHES "Home""#),
        Case(format: "title CONTAINS[cd] %@", arguments: ["milk"], canonical: #"title CONTAINS[cd] "milk""#),
        Case(format: "SELF CONTAINS[cd] %@", arguments: ["ann"], canonical: #"SELF CONTAINS[cd] "ann""#),
        Case(format: "displayTitle contains[c] %@", arguments: ["x"], canonical: #"displayTitle CONTAINS[c] "x""#),
        Case(format: "SELF CONTAINS[cd] 'LOGIN_EXISTS'", canonical: #"SELF CONTAINS[cd] "LOGIN_EXISTS""#),
        Case(
            format: "NOT entryKey contains[cd] %@", arguments: ["dile-"],
            canonical: #"NOT entryKey CONTAINS[cd] "dile-""#),
        Case(format: "SELF beginswith[c] %@", arguments: ["cache."], canonical: #"SELF BEGINSWITH[c] "cache.""#),
        Case(format: "(firstName BEGINSWITH[c] %@)", arguments: ["a"], canonical: #"firstName BEGINSWITH[c] "a""#),
        Case(
            format: "current_date beginswith[C] %@", arguments: ["2024"],
            canonical: #"current_date BEGINSWITH[c] "2024""#),
        Case(format: "drinkName beginswith[c] %@", arguments: ["m"], canonical: #"drinkName BEGINSWITH[c] "m""#),
        Case(format: "label BEGINSWITH[c] %@", arguments: ["Save"], canonical: #"label BEGINSWITH[c] "Save""#),
        Case(format: "NOT %K BEGINSWITH %@", arguments: ["fsName", "."], canonical: #"NOT fsName BEGINSWITH ".""#),
        Case(
            format: "NOT %K BEGINSWITH[c] %@", arguments: ["fsName", "."], canonical: #"NOT fsName BEGINSWITH[c] ".""#),
        Case(format: "firstName like \"Juan\"", canonical: #"firstName LIKE "Juan""#),
        Case(format: "name contains[cd] \"stein\"", canonical: #"name CONTAINS[cd] "stein""#),
        Case(
            format: "(firstName like \"Mei\") OR (lastName like \"Chen\")",
            canonical: #"firstName LIKE "Mei" OR lastName LIKE "Chen""#),
        Case(format: "group.name like \"work*\"", canonical: #"group.name LIKE "work*""#),
        Case(format: "%K like %@", arguments: ["firstName", "Adam"], canonical: #"firstName LIKE "Adam""#),
        Case(format: "%K like '%@'", arguments: ["firstName"], canonical: #"firstName LIKE "%@""#),
        Case(format: "firstName BEGINSWITH[cd] $FIRST_NAME", canonical: "firstName BEGINSWITH[cd] $FIRST_NAME"),
        Case(format: "name BEGINSWITH $startingName", canonical: "name BEGINSWITH $startingName"),
        Case(
            format: "name BEGINSWITH $startingName AND money > $amount",
            canonical: "name BEGINSWITH $startingName AND money > $amount"),
        // Several string conditions.
        Case(
            format: "email contains[cd] %@ OR fullName contains[cd] %@", arguments: ["a", "a"],
            canonical: #"email CONTAINS[cd] "a" OR fullName CONTAINS[cd] "a""#),
        Case(
            format: "name CONTAINS[cd] %@ OR name LIKE[cd] %@", arguments: ["a", "a*"],
            canonical: #"name CONTAINS[cd] "a" OR name LIKE[cd] "a*""#),
        Case(
            format: "name CONTAINS[cd] %@ OR bundleID CONTAINS[cd] %@", arguments: ["x", "x"],
            canonical: #"name CONTAINS[cd] "x" OR bundleID CONTAINS[cd] "x""#),
        Case(
            format: "name BEGINSWITH[cd] %@ OR category.name BEGINSWITH[cd] %@ OR author.name BEGINSWITH[cd] %@",
            arguments: ["s", "s", "s"],
            canonical: #"name BEGINSWITH[cd] "s" OR category.name BEGINSWITH[cd] "s" OR author.name BEGINSWITH[cd] "s""#
        ),
        Case(
            format: "name CONTAINS[cd] %@ OR address CONTAINS[cd] %@ OR phone CONTAINS[cd] %@ OR email CONTAINS[cd] %@",
            arguments: ["5", "5", "5", "5"],
            canonical:
                #"name CONTAINS[cd] "5" OR address CONTAINS[cd] "5" OR phone CONTAINS[cd] "5" OR email CONTAINS[cd] "5""#
        ),
        Case(
            format: "title CONTAINS[cd] %@ OR taskDescription CONTAINS[cd] %@", arguments: ["t", "t"],
            canonical: #"title CONTAINS[cd] "t" OR taskDescription CONTAINS[cd] "t""#),
        Case(
            format: "make CONTAINS[cd] %@ OR model CONTAINS[cd] %@ OR vin CONTAINS[cd] %@", arguments: ["v", "v", "v"],
            canonical: #"make CONTAINS[cd] "v" OR model CONTAINS[cd] "v" OR vin CONTAINS[cd] "v""#),
        Case(
            format: "desc CONTAINS[cd] %@ OR category CONTAINS[cd] %@", arguments: ["d", "d"],
            canonical: #"desc CONTAINS[cd] "d" OR category CONTAINS[cd] "d""#),
        Case(
            format: "NOT (type CONTAINS[cd] %@) AND NOT (type CONTAINS[cd] %@)", arguments: ["receiv", "investment"],
            canonical: #"NOT type CONTAINS[cd] "receiv" AND NOT type CONTAINS[cd] "investment""#),
        Case(
            format:
                "title LIKE[c] %@ AND\n    difficulty >= %lf AND difficulty < %lf AND\n    steps.@sum.timer >= %d AND steps.@sum.timer < %d",
            arguments: ["soup*", 1.5, 3.5, 60, 600],
            canonical:
                #"title LIKE[c] "soup*" AND difficulty >= 1.5 AND difficulty < 3.5 AND steps.@sum.timer >= 60 AND steps.@sum.timer < 600"#
        ),
        // IN and NOT IN.
        Case(
            format: "item_id IN %@", arguments: [[1, 2, 3, 5, 8, 13, 21]],
            canonical: "item_id IN {1, 2, 3, 5, 8, 13, 21}"),
        Case(
            format: "NOT (item_id IN %@)", arguments: [[1, 2, 3]], canonical: "NOT item_id IN {1, 2, 3}"),
        Case(format: "%K in %@", arguments: ["identifier", ["a", "b"]], canonical: #"identifier IN {"a", "b"}"#),
        Case(format: "NOT (taskIdentifier IN %@)", arguments: [[4, 5]], canonical: "NOT taskIdentifier IN {4, 5}"),
        Case(
            format: "NOT (identifier.UUIDString IN %@)", arguments: [["A"]],
            canonical: #"NOT identifier.UUIDString IN {"A"}"#),
        Case(
            format: "NOT (kind IN %@)", arguments: [["river", "canal", "stream"]],
            canonical: #"NOT kind IN {"river", "canal", "stream"}"#),
        Case(format: "NOT (value BEGINSWITH %@)", arguments: ["Coucou"], canonical: #"NOT value BEGINSWITH "Coucou""#),
        Case(format: "NOT (uuid IN %@)", arguments: [["u1", "u2"]], canonical: #"NOT uuid IN {"u1", "u2"}"#),
        Case(format: "NOT (permalink in %@)", arguments: [["p"]], canonical: #"NOT permalink IN {"p"}"#),
        // BETWEEN.
        Case(format: "grayScale BETWEEN %@", arguments: [[1, 10]], canonical: "grayScale BETWEEN {1, 10}"),
        Case(
            format: "date BETWEEN %@", arguments: [[day, nextDay]],
            canonical: "date BETWEEN {\(dayText), \(nextDayText)}"),
        Case(
            format: "%K BETWEEN %@", arguments: ["Record1.Age", [20, 40]], canonical: "Record1.Age BETWEEN {20, 40}"),
        Case(format: "1 BETWEEN { 0 , 33 }", canonical: "1 BETWEEN {0, 33}"),
        Case(format: "$INPUT BETWEEN { $LOWER, $UPPER }", canonical: "$INPUT BETWEEN {$LOWER, $UPPER}"),
        Case(format: "date between {$YESTERDAY, $TOMORROW}", canonical: "date BETWEEN {$YESTERDAY, $TOMORROW}"),
        // ANY, SOME, ALL, NONE over to-many relationships.
        Case(
            format: "ANY creators.name contains[c] %@", arguments: ["le"],
            canonical: #"ANY creators.name CONTAINS[c] "le""#),
        Case(format: "ANY wallet.id = %@", arguments: ["w1"], canonical: #"ANY wallet.id == "w1""#),
        Case(
            format: "ANY participants.handle == %@", arguments: ["@a"], canonical: #"ANY participants.handle == "@a""#),
        Case(format: "ANY offersids.id == %@", arguments: ["o"], canonical: #"ANY offersids.id == "o""#),
        Case(format: "ANY tags in %@", arguments: [["t1", "t2"]], canonical: #"ANY tags IN {"t1", "t2"}"#),
        Case(
            format: "ANY setGroups_.exercises_.muscleGroupString == %@", arguments: ["legs"],
            canonical: #"ANY setGroups_.exercises_.muscleGroupString == "legs""#),
        Case(
            format: "ANY performers.isFollowed == YES AND endTime > %@ AND imageURL != nil AND name != nil",
            arguments: [day],
            canonical: "ANY performers.isFollowed == YES AND endTime > \(dayText) AND imageURL != nil AND name != nil"),
        Case(format: "ANY tags.id IN %@", arguments: [[1, 2]], canonical: "ANY tags.id IN {1, 2}"),
        Case(format: "ANY exhibitions.name == %@", arguments: ["Expo"], canonical: #"ANY exhibitions.name == "Expo""#),
        Case(
            format: "ANY groups.id == %d AND answers.@count > 0", arguments: [7],
            canonical: "ANY groups.id == 7 AND answers.@count > 0"),
        Case(
            format: "ANY hairColor IN %@ AND firstName = %@", arguments: [["black", "blonde"], "Alice"],
            canonical: #"ANY hairColor IN {"black", "blonde"} AND firstName == "Alice""#),
        Case(format: "ANY attachments.size > %d", arguments: [1_000_000], canonical: "ANY attachments.#size > 1000000"),
        Case(format: "ANY children.age < 18", canonical: "ANY children.age < 18"),
        Case(format: "SOME employees.age >= 50", canonical: "ANY employees.age >= 50"),
        Case(format: "ALL employees.age BETWEEN {31, 42}", canonical: "ALL employees.age BETWEEN {31, 42}"),
        Case(format: "all age>20", canonical: "ALL age > 20"),
        Case(format: "ALL attachments.isDownloaded == YES", canonical: "ALL attachments.isDownloaded == YES"),
        Case(
            format: "NONE seenBy CONTAINS %@ AND senderId != %@", arguments: ["u1", "u1"],
            canonical: #"NOT ANY seenBy CONTAINS "u1" AND senderId != "u1""#),
        Case(
            format: "NONE labels.id == %@ && NONE labels.id == %@", arguments: ["INBOX", "SENT"],
            canonical: #"NOT ANY labels.id == "INBOX" AND NOT ANY labels.id == "SENT""#),
        Case(
            format: "NONE %K IN %@", arguments: ["enrollments.stateRaw", ["inactive", "invited"]],
            canonical: #"NOT ANY enrollments.stateRaw IN {"inactive", "invited"}"#),
        Case(
            format: "NONE attachments.upload_complete == NO", canonical: "NOT ANY attachments.upload_complete == NO"),
        Case(format: "NONE events.name == %@", arguments: ["banned"], canonical: #"NOT ANY events.name == "banned""#),
        Case(format: "NONE %K in %@", arguments: ["keywords", ["k"]], canonical: #"NOT ANY keywords IN {"k"}"#),
        Case(format: "NONE SELF IN %@", arguments: [[3]], canonical: "NOT ANY SELF IN {3}"),
        Case(format: "NONE id IN %@", arguments: [[1]], canonical: "NOT ANY id IN {1}"),
        Case(format: "NONE keyOwner.usage == %@", arguments: ["sign"], canonical: #"NOT ANY keyOwner.usage == "sign""#),
        // Counts, aggregates and subqueries.
        Case(format: "%K.@count == 0", arguments: ["enrollments"], canonical: "enrollments.@count == 0"),
        Case(format: "parent.@count == 0", canonical: "parent.@count == 0"),
        Case(format: "dogs.@count > 2", canonical: "dogs.@count > 2"),
        Case(format: "dogs.@sum.age > 10", canonical: "dogs.@sum.age > 10"),
        Case(
            format: "SUBQUERY(favorites, $favorite, $favorite.isDeleted == false).@count > 0",
            canonical: "SUBQUERY(favorites, $favorite, $favorite.isDeleted == NO).@count > 0"),
        Case(
            format: "SUBQUERY(%K, $v, $v.%K >= %@ and $v.%K <= %@).@count > 0",
            arguments: ["visits", "entryDate", day, "exitDate", nextDay],
            canonical: "SUBQUERY(visits, $v, $v.entryDate >= \(dayText) AND $v.exitDate <= \(nextDayText)).@count > 0"),
        Case(
            format: "SUBQUERY(experience, $x, $x.language = 'Java' AND $x.level = 'advanced').@count > 0",
            canonical: #"SUBQUERY(experience, $x, $x.language == "Java" AND $x.level == "advanced").@count > 0"#),
        Case(
            format: "SUBQUERY(messagesReceived, $message, $message.discussion == %@).@count > 0", arguments: [owner],
            canonical: "SUBQUERY(messagesReceived, $message, $message.discussion == \(ownerText)).@count > 0"),
    ]

    // The format strings of the corpus models' fetch request templates, fetched properties and derived attributes,
    // with the canonical form each must print as: `corpusStrings` reads the corpus and checks that every string
    // found is here.
    static let corpusPredicates: [String: String] = [
        "humanName == $humanName": "humanName == $humanName",
        "oneToOne.name == $NAME OR string == $NEEDLE": "oneToOne.name == $NAME OR string == $NEEDLE",
        "parent == $parent": "parent == $parent",
        "parent.parentName == $parentName": "parent.parentName == $parentName",
        "true == true": "YES == YES",
        "uuid == $UUID": "uuid == $UUID",
    ]
    static let corpusExpressions: [String: String] = [
        "canonical:(optionalString)": "canonical:(optionalString)",
        "ilo.@count": "ilo.@count",
        "now()": "now()",
        "oneToMany.@count": "oneToMany.@count",
    ]

    @Test(arguments: predicates)
    func predicate(_ testCase: Case) throws {
        let predicate = try FormatPredicate(format: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.description == testCase.canonical)
        #expect(try FormatPredicate(format: predicate.description) == predicate)
    }

    /// The table holds at least 150 distinct real-world format strings (this suite's, the corpus's and
    /// ``PredicateFormatRealWorldTests``'s).
    @Test func tableSize() {
        var formats = Set(Self.predicates.map(\.format))
        formats.formUnion(PredicateFormatRealWorldTests.predicates.map(\.format))
        formats.formUnion(PredicateFormatRealWorldTests.expressions.map(\.format))
        formats.formUnion(Self.corpusPredicates.keys)
        formats.formUnion(Self.corpusExpressions.keys)
        #expect(formats.count >= 150, "\(formats.count) distinct format strings")
    }

    /// `../shared/corpus/models` next to the repository, when present.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/corpus/models").standardizedFileURL

    /// Every `predicateString` and `derivationExpression` of every model file under `root`.
    static func corpusFormatStrings(under root: URL) throws -> (predicates: Set<String>, expressions: Set<String>) {
        var predicates: Set<String> = []
        var expressions: Set<String> = []
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return ([], []) }
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix("/contents") else { continue }
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            predicates.formUnion(attributeValues(named: "predicateString", in: text))
            expressions.formUnion(attributeValues(named: "derivationExpression", in: text))
        }
        return (predicates, expressions)
    }

    /// The values of the XML attribute `name` in `text`, unescaped.
    static func attributeValues(named name: String, in text: String) -> [String] {
        text.components(separatedBy: " \(name)=\"").dropFirst().compactMap { rest in
            rest.split(separator: "\"", maxSplits: 1, omittingEmptySubsequences: false).first.map {
                String($0).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&amp;", with: "&")
            }
        }
    }

    @Test func corpusStrings() throws {
        guard FileManager.default.fileExists(atPath: Self.corpus.path) else {
            print("skipped: \(Self.corpus.path) is absent (the corpus models are not in the repository)")
            return
        }
        let found = try Self.corpusFormatStrings(under: Self.corpus)
        #expect(found.predicates.count >= 6 && found.expressions.count >= 4, "the corpus reader found too little")
        for format in found.predicates.sorted() {
            let canonical = try #require(
                Self.corpusPredicates[format], "a corpus predicate not in the table: \(format)")
            let predicate = try FormatPredicate(format: format)
            #expect(predicate.description == canonical, "\(format)")
            #expect(try FormatPredicate(format: predicate.description) == predicate)
        }
        for format in found.expressions.sorted() {
            let canonical = try #require(
                Self.corpusExpressions[format], "a corpus expression not in the table: \(format)")
            let expression = try FormatExpression(format: format)
            #expect(expression.description == canonical, "\(format)")
            #expect(try FormatExpression(format: expression.description) == expression)
        }
    }
}
