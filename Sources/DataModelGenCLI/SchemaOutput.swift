import DataModel
import DataModelCodegen
import DataModelNaming
import Mustache

/// The `<ModelName>.sql` file that `generate` writes next to the Swift files.
enum SchemaOutput {
    /// The schema file for `model`; throws a located diagnostic when the model cannot be laid out.
    ///
    /// `usesDefaultTemplate`: whether `library`'s `schema.sql` is the default template (see
    /// ``SchemaRenderer/usesDefaultTemplate``).
    static func file(
        for model: ObjectModel, library: MustacheLibrary, ifNotExists: Bool = false, usesDefaultTemplate: Bool
    ) throws -> OutputFile {
        let layout = try SchemaRenderer.layout(of: model)
        defer { ExitTeardown.keep(layout) }
        return OutputFile(
            path: ModelNaming.schemaFileName(modelName: model.name),
            utf8: try SchemaRenderer(
                library: library, ifNotExists: ifNotExists, usesDefaultTemplate: usesDefaultTemplate
            ).renderUTF8(model, layout: layout))
    }

    /// The schema text for `model`.
    static func text(
        for model: ObjectModel, library: MustacheLibrary, ifNotExists: Bool, usesDefaultTemplate: Bool
    ) throws -> String {
        let layout = try SchemaRenderer.layout(of: model)
        return try SchemaRenderer(
            library: library, ifNotExists: ifNotExists, usesDefaultTemplate: usesDefaultTemplate
        ).render(model, layout: layout)
    }
}
