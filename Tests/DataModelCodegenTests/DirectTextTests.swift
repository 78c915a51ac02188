import DataModel
import Foundation
import Mustache
import Testing

@testable import DataModelCodegen

/// The template contexts write text keys straight into the output (`writeText(for:to:)`) and also answer
/// them as values (`value(for:)`): the two must always agree, for every key of every context.
@Suite struct DirectTextTests {
    /// Checks every key of `object`: written text equals the value's text, absent means no value, and a key
    /// that is not written writes nothing.
    private func check<Object: KeyedMustacheObject>(_ object: Object, _ label: String) -> Int {
        var checked = 0
        for key in Object.Key.allCases {
            var buffer = MustacheOutputBuffer(capacity: 16)
            let result = object.writeText(for: key, to: &buffer)
            let value = object.value(for: key)
            switch result {
            case .written:
                #expect(value?.interpolatedText == buffer.string, "\(label).\(key)")
                checked += 1
            case .absent:
                #expect(value == nil, "\(label).\(key)")
            case .notText:
                #expect(buffer.count == 0, "\(label).\(key)")
            }
        }
        return checked
    }

    @Test(arguments: [Flavor.coredata, .runtime])
    func writtenTextEqualsTheValueForEveryKey(flavor: Flavor) throws {
        var written = 0
        for model in TestPaths.exampleModels + TestPaths.corpusModels {
            guard let loaded = try? ModelLoader.load(path: model.path, versionName: nil) else { continue }
            for access in [AccessLevel.public, .internal] {
                let context = TemplateContextBuilder(
                    options: GenerationOptions(flavor: flavor, access: access, includeManual: true)
                ).context(for: loaded.model, sourceFileName: loaded.model.name + ".xcdatamodeld")
                let name = model.lastPathComponent
                written += check(ModelObject(context), name)
                for entity in context.entities {
                    written += check(entity, "\(name) \(entity.entityName)")
                    for attribute in entity.attributes { written += check(attribute, "\(name) \(attribute.name)") }
                    for relationship in entity.relationships {
                        written += check(relationship, "\(name) \(relationship.name)")
                    }
                    for fetched in entity.fetchedProperties { written += check(fetched, "\(name) \(fetched.name)") }
                    for template in entity.fetchRequestTemplates {
                        written += check(template, "\(name) \(template.name)")
                    }
                    for index in entity.runtime?.fetchIndexes ?? [] {
                        written += check(FetchIndexObject(index), "\(name) \(entity.entityName) index")
                    }
                    for property in entity.runtime?.keyPathProperties ?? [] {
                        written += check(KeyPathObject(property), "\(name) \(entity.entityName) key path")
                    }
                }
            }
        }
        #expect(written > 1000)
        print("direct text (\(flavor)): \(written) keys written, each equal to its value")
    }
}
