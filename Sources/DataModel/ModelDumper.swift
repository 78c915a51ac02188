import FoundationEssentials

/// Renders a loaded model as deterministic JSON or text, for `datamodelgen dump` and golden tests.
///
/// Output never contains absolute paths: locations carry line and column only, and the parsed file is
/// named relative to the model the user gave.
public enum ModelDumper {
    private struct Document: Encodable {
        var contentsFile: String
        var versions: [String]
        var model: ObjectModel
    }

    /// The contents file's path relative to the input (`Company.xcdatamodel/contents`).
    public static func relativeContentsPath(_ loaded: LoadedModel) -> String {
        var base = loaded.inputPath
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        if loaded.contentsPath.hasPrefix(base + "/") {
            return String(loaded.contentsPath.dropFirst(base.count + 1))
        }
        return PathName.lastComponent(loaded.contentsPath)
    }

    /// Pretty-printed JSON with sorted keys, ending with a newline.
    public static func json(_ loaded: LoadedModel) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.userInfo[SourceLocation.omitsFileKey] = true
        let document = Document(
            contentsFile: relativeContentsPath(loaded), versions: loaded.availableVersions, model: loaded.model)
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// An indented outline of the model, one line per node.
    public static func text(_ loaded: LoadedModel) -> String {
        let model = loaded.model
        var lines = ["model \(model.name) version \(model.versionName) (\(relativeContentsPath(loaded)))"]
        for entity in model.entities {
            var head = "  entity \(entity.name)"
            if entity.className != entity.name { head += " class=\(entity.className)" }
            if let parent = entity.parentEntity { head += " parent=\(parent)" }
            if entity.isAbstract { head += " abstract" }
            head += " codegen=\(entity.codeGenerationType.rawValue) @\(position(entity.location))"
            lines.append(head)
            for attribute in entity.attributes {
                var line = "    attribute \(attribute.name): \(attribute.type.rawValue)"
                if attribute.isOptional { line += " optional" }
                if attribute.isTransient { line += " transient" }
                if attribute.isDerived { line += " derived" }
                if attribute.isScalar { line += " scalar" }
                if let value = attribute.defaultValueString { line += " default=\(value)" }
                if let custom = attribute.customClassName { line += " class=\(custom)" }
                lines.append(line + " @\(position(attribute.location))")
            }
            for relationship in entity.relationships {
                var line = "    relationship \(relationship.name) -> \(relationship.destinationEntity)"
                line += relationship.isToMany ? (relationship.isOrdered ? " to-many ordered" : " to-many") : " to-one"
                if let inverse = relationship.inverseName { line += " inverse=\(inverse)" }
                line += " delete=\(relationship.deletionRule.rawValue)"
                if relationship.isOptional { line += " optional" }
                lines.append(line + " @\(position(relationship.location))")
            }
            for property in entity.fetchedProperties {
                let request = property.fetchRequest.map { " fetches \($0.entity)" } ?? ""
                lines.append("    fetchedProperty \(property.name)\(request) @\(position(property.location))")
            }
            for constraint in entity.uniquenessConstraints {
                lines.append("    unique (\(constraint.properties.joined(separator: ", ")))")
            }
            for index in entity.fetchIndexes {
                lines.append("    fetchIndex \(index.name) (\(index.elements.map(\.property).joined(separator: ", ")))")
            }
        }
        for request in model.fetchRequests {
            lines.append("  fetchRequest \(request.name) entity=\(request.entity) @\(position(request.location))")
        }
        for configuration in model.configurations {
            lines.append(
                "  configuration \(configuration.name) (\(configuration.memberEntities.joined(separator: ", ")))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func position(_ location: SourceLocation) -> String { "\(location.line):\(location.column)" }
}
