import Foundation

/// The default Mustache templates shipped with DataModelGen as resources of this target.
///
/// Each template is a `<name>.mustache` file in `Templates/`; ``source(named:)`` reads one by name.
/// The resources are found next to the running executable (or test bundle), from any working directory.
public enum DefaultTemplates {
    /// The names of every default template, without the `.mustache` extension.
    public static let names = [
        "coredata-class", "coredata-properties", "runtime-class", "runtime-properties", "runtime-model",
        "schema.sql",
    ]

    /// The file extension of template files.
    public static let fileExtension = "mustache"

    /// The directory holding the default templates, or nil when the resources are missing from this installation.
    public static let directory: URL? = {
        let bundleName = "DataModelGen_DataModelTemplates"
        var candidates: [URL] = []
        let main = Bundle.main
        candidates.append(main.bundleURL.appendingPathComponent(bundleName + ".resources"))
        candidates.append(main.bundleURL.appendingPathComponent(bundleName + ".bundle"))
        if let resources = main.resourceURL {
            candidates.append(resources.appendingPathComponent(bundleName + ".bundle"))
            candidates.append(resources.appendingPathComponent(bundleName + ".resources"))
        }
        if let executable = main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
            candidates.append(executable.appendingPathComponent(bundleName + ".resources"))
            candidates.append(executable.appendingPathComponent(bundleName + ".bundle"))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.lastPathComponent.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(bundleName + ".resources"))
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(bundleName + ".bundle"))
        }
        for candidate in candidates {
            for directory in [candidate, candidate.appendingPathComponent("Contents/Resources")] {
                let probe = directory.appendingPathComponent("coredata-class." + fileExtension)
                if FileManager.default.fileExists(atPath: probe.path) { return directory }
            }
        }
        return nil
    }()

    /// The text of the default template `name`, or nil when it does not exist.
    public static func source(named name: String) -> String? {
        guard let directory else { return nil }
        let url = directory.appendingPathComponent(name + "." + fileExtension)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The path of the default template `name` (for diagnostics), or just its file name.
    public static func path(named name: String) -> String {
        directory.map { $0.appendingPathComponent(name + "." + fileExtension).path } ?? name + "." + fileExtension
    }
}
