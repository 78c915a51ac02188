import DataModel
import DataModelNaming
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
    /// Runs the renders in parallel and is handed the template values when they are done.
    public var scheduler: any WorkScheduler

    /// Creates a generator. The library's render options should be ``MustacheRenderOptions/codeGeneration``;
    /// `scheduler` runs the renders (by default, one after the other on the calling thread).
    public init(library: MustacheLibrary, options: GenerationOptions, scheduler: any WorkScheduler = .sequential) {
        self.library = library
        self.options = options
        self.scheduler = scheduler
    }

    /// The files for `model`, sorted by path.
    ///
    /// The template contexts are built first; then the files render on up to `parallelism` threads of the
    /// scheduler at once (the calling thread among them). The result does not depend on the number of threads, and when
    /// several files fail to render, the error thrown is the one of the first file in path order.
    public func generate(_ model: ObjectModel, parallelism: Int = 1) throws(MustacheError) -> [OutputFile] {
        try generate(model, parallelism: parallelism) { _, file in file }
    }

    /// Renders the files for `model` and hands each to `deliver` as soon as it is rendered, on the thread
    /// that rendered it, with its index in path order; returns what `deliver` returned, in path order.
    ///
    /// Files are not kept once delivered, so a caller that writes them holds one file per thread, not
    /// all of them. `deliver` runs concurrently with itself when `parallelism` is above 1. When several
    /// files fail to render, the error thrown is the one of the first file in path order; the files that
    /// rendered have been delivered all the same.
    public func generate<Value: Sendable>(
        _ model: ObjectModel, parallelism: Int, deliver: @Sendable (Int, OutputFile) -> Value
    ) throws(MustacheError) -> [Value] {
        try render(context(for: model), parallelism: parallelism, deliver: deliver)
    }

    /// The template context of `model` for this generator's options (the stage before rendering).
    public func context(for model: ObjectModel) -> ModelContext {
        GeneratorPipeline(scheduler: scheduler).context(for: model, options: options)
    }

    /// Renders the files of `context` and hands each to `deliver`, as ``generate(_:parallelism:deliver:)`` does.
    public func render<Value: Sendable>(
        _ context: ModelContext, parallelism: Int, deliver: @Sendable (Int, OutputFile) -> Value
    ) throws(MustacheError) -> [Value] {
        let (classTemplate, propertiesTemplate) =
            options.flavor == .coredata
            ? (TemplateName.coreDataClass, TemplateName.coreDataProperties)
            : (TemplateName.runtimeClass, TemplateName.runtimeProperties)
        // Each entity's values are built once; per-entity templates see them inside the model's values.
        let modelObject = ModelObject(context)
        let modelValue = MustacheValue.object(modelObject)
        let entityValues = modelObject.entities
        defer { scheduler.discard(modelObject) }
        // The files and their names, as the plugins predict them (``ModelContext/outputFiles``).
        let jobs = context.outputFiles.compactMap { file -> RenderJob? in
            switch file.kind {
            case .entityClass(let index) where index < entityValues.count:
                RenderJob(
                    path: file.name, template: classTemplate, contexts: [modelValue, entityValues[index]],
                    isUserOwned: file.isUserOwned)
            case .entityProperties(let index) where index < entityValues.count:
                RenderJob(
                    path: file.name, template: propertiesTemplate, contexts: [modelValue, entityValues[index]],
                    isUserOwned: file.isUserOwned)
            case .model: RenderJob(path: file.name, template: TemplateName.runtimeModel, contexts: [modelValue])
            default: nil
            }
        }
        let library = library
        let indexed = jobs.enumerated().map { IndexedJob(index: $0.offset, job: $0.element) }
        let results = ParallelRendering.map(indexed, parallelism: parallelism, on: scheduler) { item in
            Result { () throws(MustacheError) -> Value in
                let file = OutputFile(
                    path: item.job.path,
                    utf8: try library.renderUTF8(
                        item.job.template, withContexts: [TemplateLambdas.context] + item.job.contexts),
                    isUserOwned: item.job.isUserOwned)
                return deliver(item.index, file)
            }
        }
        var values: [Value] = []
        values.reserveCapacity(results.count)
        for result in results { values.append(try result.get()) }
        return values
    }
}

/// A render job with its index in path order.
private struct IndexedJob: Sendable {
    var index: Int
    var job: RenderJob
}

/// One file to render: its path, its template and the context stack it renders with.
struct RenderJob: Sendable {
    var path: String
    var template: String
    var contexts: [MustacheValue]
    /// Whether the file is the user's to edit (``OutputFile/isUserOwned``).
    var isUserOwned = false
}
