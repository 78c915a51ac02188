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
    ///
    /// The template contexts are built first; then the files render on up to `parallelism` threads at once
    /// (the calling thread among them). The result does not depend on the number of threads, and when
    /// several files fail to render, the error thrown is the one of the first file in path order.
    public func generate(_ model: ObjectModel, parallelism: Int = 1) throws(MustacheError) -> [OutputFile] {
        let context = TemplateContextBuilder(options: options).context(
            for: model, sourceFileName: model.name + ".xcdatamodeld")
        let (classTemplate, propertiesTemplate) =
            options.flavor == .coredata
            ? (TemplateName.coreDataClass, TemplateName.coreDataProperties)
            : (TemplateName.runtimeClass, TemplateName.runtimeProperties)
        var jobs: [RenderJob] = []
        var seen: Set<String> = []
        // Each entity's values are built once; per-entity templates see them inside the model's values.
        let modelObject = ModelObject(context)
        let modelValue = MustacheValue.object(modelObject)
        let entityValues = modelObject.entities
        defer { ExitTeardown.keep(modelObject) }
        for (index, entity) in context.entities.enumerated() where index < entityValues.count {
            let contexts = [modelValue, entityValues[index]]
            if entity.generatesClass, seen.insert(entity.classFileName).inserted {
                jobs.append(RenderJob(path: entity.classFileName, template: classTemplate, contexts: contexts))
            }
            if entity.generatesProperties, seen.insert(entity.propertiesFileName).inserted {
                jobs.append(
                    RenderJob(path: entity.propertiesFileName, template: propertiesTemplate, contexts: contexts))
            }
        }
        if options.flavor == .runtime {
            jobs.append(
                RenderJob(
                    path: model.name + "+Model.swift", template: TemplateName.runtimeModel, contexts: [modelValue]))
        }
        jobs.sort { $0.path < $1.path }
        let library = library
        let results = ParallelRendering.map(jobs, parallelism: parallelism) { job in
            Result { () throws(MustacheError) -> OutputFile in
                OutputFile(path: job.path, utf8: try library.renderUTF8(job.template, withContexts: job.contexts))
            }
        }
        var files: [OutputFile] = []
        files.reserveCapacity(results.count)
        for result in results { files.append(try result.get()) }
        return files
    }
}

/// One file to render: its path, its template and the context stack it renders with.
struct RenderJob: Sendable {
    var path: String
    var template: String
    var contexts: [MustacheValue]
}
