import DataModel
import DataModelCodegen
import Mustache

/// The `<ModelName>.sql` file (filled in by the schema renderer).
enum SchemaOutput {
    static func file(for model: ObjectModel, library: MustacheLibrary) throws -> OutputFile? { nil }
}
