import DataModel
import Mustache

/// Renders Swift files (and the SQL schema) for a model through Mustache templates.
///
/// Pure: it takes compiled templates and a model and returns ``OutputFile`` values; the caller writes them.
public struct CodeGenerator: Sendable {
    /// Template names used by each flavor.
    public enum TemplateName {
        public static let coreDataClass = "coredata-class"
        public static let coreDataProperties = "coredata-properties"
        public static let runtimeClass = "runtime-class"
        public static let runtimeProperties = "runtime-properties"
        public static let runtimeModel = "runtime-model"
        public static let schema = "schema.sql"
    }

    /// The compiled templates.
    public var library: MustacheLibrary
    /// The options of the run.
    public var options: GenerationOptions

    /// Creates a generator. The library's render options should be ``MustacheRenderOptions/codeGeneration``.
    public init(library: MustacheLibrary, options: GenerationOptions) {
        self.library = library
        self.options = options
    }

    /// The files for `model`, sorted by path.
    public func generate(_ model: ObjectModel) throws(MustacheError) -> [OutputFile] {
        let context = TemplateContextBuilder(options: options).context(
            for: model, sourceFileName: model.name + ".xcdatamodeld")
        let (classTemplate, propertiesTemplate) =
            options.flavor == .coredata
            ? (TemplateName.coreDataClass, TemplateName.coreDataProperties)
            : (TemplateName.runtimeClass, TemplateName.runtimeProperties)
        var files: [OutputFile] = []
        var seen: Set<String> = []
        for entity in context.entities {
            let scope = EntityScope(model: context, entity: entity)
            if entity.generatesClass, seen.insert(entity.classFileName).inserted {
                files.append(
                    OutputFile(path: entity.classFileName, contents: try library.render(classTemplate, with: scope)))
            }
            if entity.generatesProperties, seen.insert(entity.propertiesFileName).inserted {
                files.append(
                    OutputFile(
                        path: entity.propertiesFileName, contents: try library.render(propertiesTemplate, with: scope)))
            }
        }
        if options.flavor == .runtime {
            let path = model.name + "+Model.swift"
            files.append(OutputFile(path: path, contents: try library.render(TemplateName.runtimeModel, with: context)))
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// The context of a per-entity template: the entity's keys plus the model's.
struct EntityScope: MustacheRepresentable {
    var model: ModelContext
    var entity: EntityContext

    var mustacheValue: MustacheValue {
        guard case .dictionary(var values) = entity.mustacheValue else { return entity.mustacheValue }
        values["modelName"] = .string(model.modelName)
        values["versionName"] = .string(model.versionName)
        values["sourceFileName"] = .string(model.sourceFileName)
        values["accessPrefix"] = .string(model.accessPrefix)
        values["modelTypeName"] = .string(model.modelTypeName)
        return .dictionary(values)
    }
}
