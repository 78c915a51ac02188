import DataModel
import DataModelCodegen
import DataModelTemplates
import FoundationEssentials
import Mustache

/// Compiles the default templates, replacing any that a user's `--templates DIR` provides by file name.
enum TemplateLoader {
    /// A library with every default template, overridden (or extended) by `*.mustache` files in `directory`.
    static func library(overrides directory: String?) throws -> MustacheLibrary {
        var library = MustacheLibrary(options: .codeGeneration)
        for name in DefaultTemplates.names {
            guard let source = DefaultTemplates.source(named: name) else {
                throw IOFailure(
                    path: DefaultTemplates.path(named: name),
                    message: "default template '\(name)' is missing from this build; rebuild or pass --templates")
            }
            let path = DefaultTemplates.path(named: name)
            try library.add(source: source, name: name, path: path)
            // Also reachable as `default-<name>`, so an override can extend it: `{{<default-<name>}}{{$imports}}…`.
            try library.add(source: source, name: "default-" + name, path: path)
        }
        if let directory {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory
            else {
                throw IOFailure(path: directory, message: "templates directory does not exist")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for entry in entries.sorted() where entry.hasSuffix("." + DefaultTemplates.fileExtension) {
                let path = PathName.joined(directory, entry)
                guard case .success(let data) = FileReading.read(path, limit: 16 << 20) else {
                    throw IOFailure(
                        path: path, message: "cannot read the template (not a readable regular file under 16 MiB)")
                }
                let name = String(entry.dropLast(DefaultTemplates.fileExtension.count + 1))
                try library.add(source: String(decoding: data, as: UTF8.self), name: name, path: path)
            }
        }
        if let unresolved = library.unresolvedReferences().first { throw unresolved }
        return library
    }

    /// Whether `directory` replaces the default template `name`: it holds `<name>.mustache`, which
    /// ``library(overrides:)`` compiles in place of the default.
    static func overrides(_ name: String, in directory: String?) -> Bool {
        guard let directory else { return false }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.contains(name + "." + DefaultTemplates.fileExtension)
    }

}
