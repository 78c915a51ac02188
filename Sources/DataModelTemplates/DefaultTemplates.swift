/// The default Mustache templates shipped with DataModelGen, built into the binary.
///
/// Each template is a `<name>.mustache` file in `Templates/`; `Scripts/embed-templates.sh` writes their text into
/// this module as string literals (``embeddedSources``, in `EmbeddedTemplates.swift`), so the tool finds them from
/// any working directory and an installed binary needs nothing beside it.
public enum DefaultTemplates {
    /// The names of every default template, without the `.mustache` extension.
    public static let names = [
        "coredata-class", "coredata-properties", "runtime-class", "runtime-properties", "runtime-model",
    ]

    /// The file extension of template files.
    public static let fileExtension = "mustache"

    /// The text of the default template `name`, or nil when it does not exist.
    public static func source(named name: String) -> String? {
        embeddedSources[name]
    }

    /// The path of the default template `name` in the repository, as diagnostics name it.
    public static func path(named name: String) -> String {
        "Templates/" + name + "." + fileExtension
    }
}
