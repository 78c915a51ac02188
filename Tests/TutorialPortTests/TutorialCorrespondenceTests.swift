import Foundation
import Testing

/// Docs/TutorialPorts.md shows each tutorial's Core Data code and its port. This suite checks the page against the
/// code the other tests run, line by line: the port block is the test's `port:` region, and the Core Data block
/// becomes the port block by renaming types and by the page's listed differences, nothing else.
@Suite("Tutorial ports: the Core Data code differs only in type names")
struct TutorialCorrespondenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let page = root.appendingPathComponent("Docs/TutorialPorts.md")
    static let sources = [
        "Tests/TutorialPortTests/TutorialPortTests.swift", "Tests/TutorialPortTests/RecordsClasses.swift",
    ]
    static let tutorials = ["Company", "Records classes", "Records", "Restaurants", "Person", "Members"]

    /// Core Data's type names and the runtime's, as the page's table lists them.
    static let renames: [(coreData: String, runtime: String)] = [
        ("NSPersistentContainer", "PersistentContainer"),
        ("NSManagedObjectContext", "ManagedObjectContext"),
        ("NSFetchedResultsControllerDelegate", "FetchedResultsControllerDelegate"),
        ("NSFetchedResultsController", "FetchedResultsController"),
        ("NSFetchedResultsChangeType", "FetchedResultsChangeType"),
        ("NSFetchRequestResult", "ManagedObject"),
        ("NSFetchRequest", "FetchRequest"),
        ("NSPredicate", "ManagedPredicate"),
        ("NSSortDescriptor", "SortDescriptor"),
        ("NSBatchDeleteRequest", "BatchDeleteRequest"),
        ("NSManagedObject", "ManagedObject"),
    ]

    /// The fenced Swift block after `<!-- tutorial: name, kind -->` on the page.
    static func block(_ name: String, _ kind: String, in page: String) throws -> [String] {
        let lines = page.components(separatedBy: "\n")
        let marker = try #require(
            lines.firstIndex(of: "<!-- tutorial: \(name), \(kind) -->"), "no \(kind) block for \(name) on the page")
        #expect(lines[marker + 1] == "```swift")
        let end = try #require(lines[(marker + 2)...].firstIndex(of: "```"))
        return Array(lines[(marker + 2)..<end])
    }

    /// The lines between `// port: begin name` and the next `// port: end` in the test sources, de-indented.
    static func region(_ name: String) throws -> [String] {
        for source in sources {
            let lines = try String(contentsOf: root.appendingPathComponent(source), encoding: .utf8)
                .components(separatedBy: "\n")
            guard
                let begin = lines.firstIndex(where: {
                    $0.trimmingCharacters(in: .whitespaces) == "// port: begin \(name)"
                })
            else { continue }
            let indent = lines[begin].prefix { $0 == " " }.count
            let end = try #require(
                lines[begin...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// port: end" })
            return lines[(begin + 1)..<end].map {
                $0.hasPrefix(String(repeating: " ", count: indent)) ? String($0.dropFirst(indent)) : $0
            }
        }
        Issue.record("no port region \(name)")
        return []
    }

    /// `line` with Core Data's type names replaced by the runtime's (whole words only).
    static func renamed(_ line: String) -> String {
        var result = line
        for (coreData, runtime) in renames {
            var output = ""
            var rest = Substring(result)
            while let range = rest.range(of: coreData) {
                let before = rest[..<range.lowerBound].last
                let after = rest[range.upperBound...].first
                let isWord =
                    !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)
                    && !(after.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)
                output += rest[..<range.lowerBound] + (isWord ? runtime : coreData)
                rest = rest[range.upperBound...]
            }
            result = output + rest
        }
        return result
    }

    /// The Core Data block as the runtime needs it: renamed, then the page's listed differences applied. Each
    /// difference is counted in `applied`.
    static func ported(_ coreData: [String], applied: inout [String: Int]) -> [String] {
        var lines = coreData.map(renamed)
        // 1. No Objective-C runtime: no `@objc(Name)` on classes.
        let withoutObjC = lines.filter { !$0.drop { $0 == " " }.hasPrefix("@objc(") }
        applied["no @objc", default: 0] += lines.count - withoutObjC.count
        lines = withoutObjC
        // 2. The controller's delegate is typed by the controller's results.
        let resultType = lines.lazy.compactMap { line -> String? in
            guard let range = line.range(of: "FetchedResultsController<"), !line.contains("<ManagedObject>") else {
                return nil
            }
            return String(line[range.upperBound...].prefix { $0 != ">" })
        }.first
        for (index, line) in lines.enumerated() {
            guard let resultType, line.contains("FetchedResultsController<ManagedObject>, didChange anObject: Any")
            else { continue }
            lines[index] = line.replacingOccurrences(
                of: "FetchedResultsController<ManagedObject>, didChange anObject: Any",
                with: "FetchedResultsController<\(resultType)>, didChange anObject: \(resultType)")
            applied["typed delegate", default: 0] += 1
        }
        return lines
    }

    @Test(arguments: tutorials)
    func portBlockIsTheTestedCode(_ name: String) throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let shown = try Self.block(name, "DataModelRuntime", in: page)
        let tested = try Self.region(name)
        #expect(shown == tested, "Docs/TutorialPorts.md's \(name) port differs from the tested code")
    }

    @Test(arguments: tutorials)
    func coreDataBlockDiffersOnlyInTypeNames(_ name: String) throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let coreData = try Self.block(name, "Core Data", in: page)
        let port = try Self.block(name, "DataModelRuntime", in: page)
        var applied: [String: Int] = [:]
        let expected = Self.ported(coreData, applied: &applied)
        #expect(expected.count == port.count, "\(name): \(expected.count) lines after renaming, \(port.count) ported")
        for (number, (wanted, actual)) in zip(expected, port).enumerated() where wanted != actual {
            Issue.record("\(name) line \(number + 1): Core Data renamed is\n  \(wanted)\nthe port has\n  \(actual)")
        }
        // The Core Data side really is Core Data's spelling.
        #expect(coreData.joined().contains("NS"))
        #expect(!coreData.contains { $0.contains("ManagedPredicate") || $0.contains("var request") })
        // A fetch request is a class on both sides: a request the code configures afterwards is a `let` in the port
        // too, as in Core Data.
        let varRequests = port.filter { line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("var ")
                && (trimmed.contains("FetchRequest<") || trimmed.contains("fetchRequest()"))
        }
        #expect(varRequests.isEmpty, "\(name): fetch requests declared with var: \(varRequests)")
        print("\(name): differences beyond type names: \(applied.filter { $0.value > 0 })")
    }

    /// Every difference beyond type names the page lists is used by some tutorial, and none other is.
    @Test func listedDifferencesAreTheOnesUsed() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        var applied: [String: Int] = [:]
        for name in Self.tutorials {
            _ = Self.ported(try Self.block(name, "Core Data", in: page), applied: &applied)
        }
        #expect(
            applied.filter { $0.value > 0 }.keys.sorted() == ["no @objc", "typed delegate"])
    }
}
