import DataModel
import DataModelNaming
import DataModelStoreLayout
import Mustache

/// The generator's stages, and the value that crosses each boundary.
///
/// ```
/// bundle on disk ──load──────► LoadedModel      (ObjectModel + the loader's diagnostics; ModelLoader)
///                ──validate──► ValidatedModel   (+ the validator's diagnostics, sorted; Validator)
///                ──context───► ModelContext     (every derived fact; TemplateContextBuilder)
///                ──render────► [OutputFile]     (one flavor's files, sorted by path; Mustache)
///                ──the CLI───► disk             (OutputPipeline: OutputWriter, DirectoryUpdate)
/// ObjectModel    ──layout────► StoreLayout      (Core Data's tables and columns; DataModelStoreLayout)
///                ──schema────► OutputFile       (<ModelName>.sql; SchemaRenderer)
/// ```
///
/// Loading is the one stage that reads files (the bundle's `contents` and `.xccurrentversion`); every other
/// stage works in memory. Nothing here writes a file, prints, exits or starts a thread: parallel work and what
/// becomes of large graphs go through ``scheduler``, which the command-line tool fills with threads of its own.
public struct GeneratorPipeline: Sendable {
    /// Runs the stages' parallel work and is handed their large graphs when they are done.
    public var scheduler: any WorkScheduler

    /// Creates the pipeline; `scheduler` runs its parallel work (by default, all on the calling thread).
    public init(scheduler: any WorkScheduler = .sequential) {
        self.scheduler = scheduler
    }

    // MARK: Bundle → LoadedModel → ValidatedModel

    /// Stage 1: the model at `path` (a bundle, a version directory or a `contents` file), parsed.
    public func load(path: String, versionName: String?) throws(ModelLoadingError) -> LoadedModel {
        try ModelLoader.load(path: path, versionName: versionName)
    }

    /// Stage 2: `loaded` with the validator's findings added to the loader's.
    public func validate(_ loaded: LoadedModel) -> ValidatedModel {
        var loaded = loaded
        // An attribute whose type the loader did not know is read as Undefined; the validator's "Undefined is only
        // for transient attributes" about the same element would be a second error for the one mistake.
        let unknownTypes = Set(
            loaded.diagnostics.filter { $0.ruleID == RuleID.unknownAttributeType.rawValue }.map(\.location))
        loaded.diagnostics += Validator(scheduler: scheduler).validate(loaded.model).filter {
            !($0.ruleID == RuleID.undefinedNotTransient.rawValue && unknownTypes.contains($0.location))
        }
        return ValidatedModel(loaded)
    }

    // MARK: ObjectModel → ModelContext → [OutputFile]

    /// Stage 1b: the bundle's versions before `loaded`'s, oldest first (the runtime flavor describes them so that
    /// stores they wrote migrate), and a warning for each version that does not load (it is left out).
    public func earlierVersions(of loaded: LoadedModel) -> (models: [ObjectModel], warnings: [Diagnostic]) {
        guard let index = loaded.availableVersions.firstIndex(of: loaded.model.versionName), index > 0 else {
            return ([], [])
        }
        var models: [ObjectModel] = []
        var warnings: [Diagnostic] = []
        for name in loaded.availableVersions[..<index] {
            do {
                models.append(try ModelLoader.load(path: loaded.inputPath, versionName: name).model)
            } catch {
                warnings.append(
                    .warning(
                        "model version '\(name)' does not load, so stores it wrote will not migrate: "
                            + (error.diagnostics.first?.message ?? "\(error)"),
                        rule: .unknownModelVersion, at: SourceLocation(file: loaded.inputPath)))
            }
        }
        return (models, warnings)
    }

    /// Stage 3: the template context of `model` for one flavor's `options`.
    ///
    /// `earlierVersions`: the bundle's versions before `model`, oldest first; the runtime flavor describes them
    /// too, so that the runtime can migrate a store one of them wrote.
    public func context(
        for model: ObjectModel, options: GenerationOptions, earlierVersions: [ObjectModel] = []
    ) -> ModelContext {
        var context = TemplateContextBuilder(options: options).context(
            for: model, sourceFileName: ModelNaming.sourceFileName(modelName: model.name))
        context.outputFiles = ModelNaming.outputFiles(
            modelName: model.name,
            entities: model.entities.map {
                .init(
                    name: $0.name, representedClassName: $0.representedClassName, codeGeneration: $0.codeGenerationType)
            },
            flavor: options.flavor, includeManual: options.includeManual, xcodeCompatible: options.xcodeCompatible)
        if options.flavor == .runtime {
            context.earlierVersions = earlierVersions.map { self.context(for: $0, options: options) }
        }
        return context
    }

    /// Stage 4: the files of `context` rendered with `library`, each handed to `deliver` as soon as it is
    /// rendered, on up to `parallelism` threads (see ``CodeGenerator/render(_:parallelism:deliver:)``).
    public func render<Value: Sendable>(
        _ context: ModelContext, library: MustacheLibrary, options: GenerationOptions, parallelism: Int,
        deliver: @Sendable (Int, OutputFile) -> Value
    ) throws(GenerationFailure) -> [Value] {
        let generator = CodeGenerator(library: library, options: options, scheduler: scheduler)
        do {
            return try generator.render(context, parallelism: parallelism, deliver: deliver)
        } catch {
            throw .template(error)
        }
    }

    // MARK: ObjectModel → StoreLayout → SQL

    /// The store layout of `model`.
    public func layout(of model: ObjectModel) throws(GenerationFailure) -> StoreLayout {
        do {
            return try SchemaRenderer.layout(of: model)
        } catch {
            throw .layout(error)
        }
    }

    /// The `<ModelName>.sql` file that `generate` writes next to the Swift files.
    ///
    /// `usesDefaultTemplate`: whether `library`'s `schema.sql` is the default template (see
    /// ``SchemaRenderer/usesDefaultTemplate``).
    public func schemaFile(
        for model: ObjectModel, library: MustacheLibrary, options: SchemaOptions = SchemaOptions(),
        usesDefaultTemplate: Bool
    ) throws(GenerationFailure) -> OutputFile {
        let layout = try layout(of: model)
        defer { scheduler.discard(layout) }
        let renderer = SchemaRenderer(library: library, options: options, usesDefaultTemplate: usesDefaultTemplate)
        do {
            return OutputFile(
                path: ModelNaming.schemaFileName(modelName: model.name),
                utf8: try renderer.renderUTF8(model, layout: layout))
        } catch {
            throw .template(error)
        }
    }

    /// The schema text of `model`, as `datamodelgen schema` prints it.
    public func schemaText(
        for model: ObjectModel, library: MustacheLibrary, options: SchemaOptions, usesDefaultTemplate: Bool
    ) throws(GenerationFailure) -> String {
        let layout = try layout(of: model)
        let renderer = SchemaRenderer(library: library, options: options, usesDefaultTemplate: usesDefaultTemplate)
        do {
            return try renderer.render(model, layout: layout)
        } catch {
            throw .template(error)
        }
    }
}

/// A model that went through validation: what the loader read and every diagnostic found about it.
public struct ValidatedModel: Sendable {
    /// The model as loaded, with the loader's and the validator's diagnostics.
    public var loaded: LoadedModel

    /// Wraps a model whose diagnostics include the validator's.
    public init(_ loaded: LoadedModel) {
        self.loaded = loaded
    }

    /// The parsed model.
    public var model: ObjectModel { loaded.model }
    /// Every diagnostic of loading and validation.
    public var diagnostics: [Diagnostic] { loaded.diagnostics }
}

/// Why a model that loaded and validated could not be turned into files.
public enum GenerationFailure: Error, Sendable {
    /// A template failed to render (or a user's template is broken): a located Mustache error.
    case template(MustacheError)
    /// The model has no store layout: a located diagnostic.
    case layout(SchemaLayoutError)
}
