import DataModel
import DataModelCodegen
import FoundationEssentials
import Mustache

/// Where one flavor's files go: the output directory itself when one flavor is generated, else a
/// subdirectory named after the flavor (`<output>/coredata`, `<output>/runtime`).
struct FlavorTarget {
    var flavor: Flavor
    var directory: String
    /// The path of the flavor's directory relative to the output directory, with a trailing slash, or "".
    var prefix: String

    static func targets(for flavors: [Flavor], output: String) -> [FlavorTarget] {
        guard flavors.count > 1 else {
            return flavors.map { FlavorTarget(flavor: $0, directory: output, prefix: "") }
        }
        return flavors.map {
            FlavorTarget(
                flavor: $0, directory: PathName.joined(output, $0.rawValue),
                prefix: $0.rawValue + "/")
        }
    }
}

/// What `generate` does with the rendered files.
enum OutputMode: Sendable {
    /// Each file is written as soon as it renders (see ``DirectoryUpdate``) and not kept; a flavor's files
    /// become visible when all of them (and the schema) rendered.
    case write
    /// The files are kept and what writing them would change is planned, nothing written (`--check`,
    /// `--dry-run`, `--expect-output`).
    case plan
}

/// One flavor's part of a `generate` run.
struct FlavorOutput: Sendable {
    /// What became of a flavor's files.
    enum Files: Sendable {
        /// They were written: the size and modification time of each.
        case written([GenerationCache.Entry])
        /// They were kept, and what writing them would change planned.
        case planned([OutputFile], OutputPlan)
    }

    /// The paths of its files, relative to its directory, sorted.
    var paths: [String]
    var files: Files

    /// The plan, in ``OutputMode/plan``.
    var plan: OutputPlan? {
        if case .planned(_, let plan) = files { return plan }
        return nil
    }

    /// The written files, in ``OutputMode/write``.
    var written: [GenerationCache.Entry] {
        if case .written(let entries) = files { return entries }
        return []
    }
}

/// Why `generate` produced no output: the model could not be rendered (exit code 1), or a file could not be
/// written (exit code 3).
enum OutputFailure: Error {
    /// A template failed to render, or the model has no store layout.
    case generation(GenerationFailure)
    /// A file or directory could not be written.
    case io(IOFailure)
}

/// The last stage of `generate`: the rendered files of every flavor (and the schema), onto the disk or into
/// plans, through ``GeneratorPipeline``.
struct OutputPipeline {
    var pipeline: GeneratorPipeline
    var library: MustacheLibrary
    var options: GenerationOptions
    /// Whether `library`'s `schema.sql` is the default template (then the schema is written without going
    /// through Mustache).
    var schemaUsesDefaultTemplate: Bool
    /// The model's file name, as generated headers name it (files that carry it are this model's output).
    var modelFileName: String
    /// Whether user-owned files are rewritten like the others (`--overwrite-user-files`, the build plugin's
    /// output directory) instead of being written only when they do not exist.
    var overwritesUserFiles = false
    /// The bundle's versions before the one generated, oldest first (the runtime flavor describes them).
    var earlierVersions: [ObjectModel] = []

    /// Renders every flavor of `targets` (in that order); the schema is rendered once and goes into every
    /// flavor's files. A flavor that fails to render leaves its directory as it was.
    ///
    /// The flavors and the schema render on threads of their own (each flavor's files on several), sharing
    /// nothing but immutable inputs. Errors come in a fixed order whatever the timing: rendering errors of
    /// the flavors in order, then the schema's, then failures to write.
    func produce(for model: ObjectModel, targets: [FlavorTarget], mode: OutputMode) throws(OutputFailure)
        -> [FlavorOutput]
    {
        let schema =
            options.includeSchema
            ? BackgroundWork { () throws(GenerationFailure) -> OutputFile in try schemaFile(model) } : nil
        // Several flavors already render side by side; splitting a small model's files further costs more in
        // thread starts than it saves.
        let threads =
            targets.count > 1 && model.entities.count < 256 ? 1 : pipeline.scheduler.availableThreads
        let outcomes = ParallelWork.map(targets) { target -> FlavorOutcome in
            var flavorOptions = options
            flavorOptions.flavor = target.flavor
            let context = pipeline.context(for: model, options: flavorOptions, earlierVersions: earlierVersions)
            defer { pipeline.scheduler.discard(context) }
            let flavor = FlavorRun(
                pipeline: pipeline, library: library, options: flavorOptions, context: context, threads: threads,
                schema: schema, target: target, modelFileName: modelFileName,
                overwritesUserFiles: overwritesUserFiles)
            switch mode {
            case .write: return flavor.write()
            case .plan: return flavor.plan()
            }
        }
        for outcome in outcomes {
            if case .renderingFailed(let failure) = outcome { throw .generation(failure) }
        }
        if case .failure(let failure) = schema?.result() { throw .generation(failure) }
        var outputs: [FlavorOutput] = []
        for outcome in outcomes {
            switch outcome {
            case .produced(let output): outputs.append(output)
            case .writingFailed(let failure): throw .io(failure)
            // Reported above: a flavor that waited for a schema that failed, or one that failed to render.
            case .schemaFailed, .renderingFailed: break
            }
        }
        return outputs
    }

    private func schemaFile(_ model: ObjectModel) throws(GenerationFailure) -> OutputFile {
        try pipeline.schemaFile(
            for: model, library: library, options: options.schema, usesDefaultTemplate: schemaUsesDefaultTemplate)
    }
}

/// What one flavor's thread hands back.
private enum FlavorOutcome: Sendable {
    /// Its files, written or planned.
    case produced(FlavorOutput)
    /// One of its files failed to render.
    case renderingFailed(GenerationFailure)
    /// The schema failed to render; its error is the schema work's.
    case schemaFailed
    /// Its files rendered but could not be written.
    case writingFailed(IOFailure)
}

/// One flavor of a run: its files rendered, then planned or written.
private struct FlavorRun {
    var pipeline: GeneratorPipeline
    var library: MustacheLibrary
    var options: GenerationOptions
    var context: ModelContext
    var threads: Int
    var schema: BackgroundWork<OutputFile, GenerationFailure>?
    var target: FlavorTarget
    var modelFileName: String
    var overwritesUserFiles: Bool

    /// `file` as the writer treats it: no longer user-owned when user-owned files are overwritten.
    private static func writable(_ file: OutputFile, overwritingUserFiles: Bool) -> OutputFile {
        guard overwritingUserFiles, file.isUserOwned else { return file }
        var file = file
        file.isUserOwned = false
        return file
    }

    /// Renders the flavor's files, keeps them and plans what writing them would change.
    func plan() -> FlavorOutcome {
        var files: [OutputFile]
        let overwrites = overwritesUserFiles
        do {
            files = try pipeline.render(
                context, library: library, options: options, parallelism: threads,
                deliver: { _, file in Self.writable(file, overwritingUserFiles: overwrites) })
        } catch {
            return .renderingFailed(error)
        }
        if let schema {
            guard case .success(let schemaFile) = schema.result() else { return .schemaFailed }
            files.append(schemaFile)
            files.sort { $0.path < $1.path }
        }
        let plan = OutputWriter.plan(
            files, in: target.directory, modelFileName: modelFileName, protectsUserFiles: !overwritesUserFiles)
        return .produced(FlavorOutput(paths: files.map(\.path), files: .planned(files, plan)))
    }

    /// Writes each of the flavor's files as soon as it renders, and makes them visible once all rendered; a
    /// file that fails to render leaves the directory as it was.
    func write() -> FlavorOutcome {
        let update: DirectoryUpdate
        do {
            update = try DirectoryUpdate(
                directory: target.directory, modelFileName: modelFileName, protectsUserFiles: !overwritesUserFiles)
        } catch {
            // Rendering errors come before failures to write: render (into nothing) to find them.
            switch renderedPaths(into: nil) {
            case .failure(let failure): return .renderingFailed(failure)
            case .success: return schema?.result().isFailure == true ? .schemaFailed : .writingFailed(error)
            }
        }
        var paths: [String]
        switch renderedPaths(into: update) {
        case .success(let rendered): paths = rendered
        case .failure(let failure):
            update.abandon()
            return .renderingFailed(failure)
        }
        if let schema {
            guard case .success(let schemaFile) = schema.result() else {
                update.abandon()
                return .schemaFailed
            }
            update.offer(schemaFile)
            paths.append(schemaFile.path)
            paths.sort()
        }
        do {
            return .produced(FlavorOutput(paths: paths, files: .written(try update.commit())))
        } catch {
            return .writingFailed(error)
        }
    }

    /// The paths of the rendered files, each offered to `update` as soon as it is rendered.
    private func renderedPaths(into update: DirectoryUpdate?) -> Result<[String], GenerationFailure> {
        let overwrites = overwritesUserFiles
        return Result { () throws(GenerationFailure) -> [String] in
            try pipeline.render(context, library: library, options: options, parallelism: threads) { _, file in
                update?.offer(Self.writable(file, overwritingUserFiles: overwrites))
                return file.path
            }
        }
    }
}

extension Result {
    /// Whether this is a failure.
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
