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
        var places: [URL] = []
        let main = Bundle.main
        places.append(main.bundleURL)
        if let resources = main.resourceURL { places.append(resources) }
        if let executable = main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
            places.append(executable)
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.lastPathComponent.hasSuffix(".xctest") {
            places.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for place in places {
            for bundle in resourceBundles(in: place) {
                for directory in [bundle, bundle.appendingPathComponent("Contents/Resources")] {
                    let probe = directory.appendingPathComponent("coredata-class." + fileExtension)
                    if FileManager.default.fileExists(atPath: probe.path) { return directory }
                }
            }
        }
        return nil
    }()

    /// This target's resource bundles in `directory`, best match first.
    ///
    /// SwiftPM names the bundle `<package identity>_DataModelTemplates` (`.resources` on Linux, `.bundle` on
    /// Apple platforms), with `-tool` added when the tool is built for a plugin; the identity depends on how
    /// the package was added (its folder name for a path dependency), so any prefix is accepted.
    static func resourceBundles(in directory: URL) -> [URL] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let suffixes = [
            "_DataModelTemplates.resources", "_DataModelTemplates.bundle", "_DataModelTemplates-tool.resources",
            "_DataModelTemplates-tool.bundle",
        ]
        var found: [(rank: Int, name: String)] = []
        for entry in entries {
            guard let rank = suffixes.firstIndex(where: { entry.hasSuffix($0) }) else { continue }
            found.append((entry.hasPrefix("DataModelGen_") ? rank : rank + suffixes.count, entry))
        }
        return found.sorted { ($0.rank, $0.name) < ($1.rank, $1.name) }.map {
            directory.appendingPathComponent($0.name)
        }
    }

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
