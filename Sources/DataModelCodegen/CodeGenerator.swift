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
        // Each entity's values are built once; per-entity templates see them inside the model's values.
        let modelObject = ModelObject(context)
        let modelValue = MustacheValue.object(modelObject)
        let entityValues = modelObject.entities
        defer { ExitTeardown.keep(modelObject) }
        for (index, entity) in context.entities.enumerated() where index < entityValues.count {
            let contexts = [modelValue, entityValues[index]]
            if entity.generatesClass, seen.insert(entity.classFileName).inserted {
                files.append(
                    OutputFile(
                        path: entity.classFileName, utf8: try library.renderUTF8(classTemplate, withContexts: contexts))
                )
            }
            if entity.generatesProperties, seen.insert(entity.propertiesFileName).inserted {
                files.append(
                    OutputFile(
                        path: entity.propertiesFileName,
                        utf8: try library.renderUTF8(propertiesTemplate, withContexts: contexts)))
            }
        }
        if options.flavor == .runtime {
            let path = model.name + "+Model.swift"
            files.append(
                OutputFile(
                    path: path, utf8: try library.renderUTF8(TemplateName.runtimeModel, withContexts: [modelValue])))
        }
        return files.sorted { $0.path < $1.path }
    }
}
