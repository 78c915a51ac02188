import Mustache

// Template contexts are Mustache objects: a template's lookups are answered by a `switch` over the key,
// and only the keys a template uses are ever computed, so no dictionary is built per entity or property.
// Every context is immutable: templates of one flavor render on several threads over the same objects.

extension ModelContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(ModelObject(self)) }
}

extension EntityContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(self) }
}

extension AttributeContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(self) }
}

extension RelationshipContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(self) }
}

extension FetchedPropertyContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(self) }
}

/// The model's keys.
final class ModelObject: KeyedMustacheObject {
    let context: ModelContext
    /// Each entity's object, shared by every template that renders the entity.
    let entities: [MustacheValue]

    init(_ context: ModelContext) {
        self.context = context
        self.entities = context.entities.map { .object($0) }
    }

    enum Key: String, CaseIterable, Sendable {
        case modelName, versionName, versionNameLiteral, sourceFileName, accessPrefix, modelTypeName, modelFileName,
            entities, earlierVersions, hasEarlierVersions, fetchRequestTemplates, hasFetchRequestTemplates
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .entities: .array(entities)
        case .earlierVersions: .array(context.earlierVersions.map { .object(ModelObject($0)) })
        case .hasEarlierVersions: .bool(!context.earlierVersions.isEmpty)
        case .fetchRequestTemplates: .array(context.fetchRequestTemplates.map { .object($0) })
        case .hasFetchRequestTemplates: .bool(!context.fetchRequestTemplates.isEmpty)
        default: writtenValue(for: known)
        }
    }

    func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .modelName: output.append(context.modelName)
        case .versionName: output.append(context.versionName)
        case .versionNameLiteral: output.appendLiteral(context.versionName)
        case .sourceFileName: output.append(context.sourceFileName)
        case .accessPrefix: output.append(context.accessPrefix)
        case .modelTypeName: output.append(context.modelTypeName)
        case .modelFileName: output.append(context.modelFileName)
        case .entities, .earlierVersions, .hasEarlierVersions, .fetchRequestTemplates, .hasFetchRequestTemplates:
            return .notText
        }
        return .written
    }
}

/// An entity's keys, plus the runtime flavor's extra keys when present.
extension EntityContext: KeyedMustacheObject {
    /// The template keys, named as in `Templates/README.md`.
    public enum Key: String, CaseIterable, Sendable {
        case entityName, className, plainClassName, superclassName, hasParent, isAbstract, hasSubentities, isUserOwned,
            classModifiers, codeGeneration, generatesClass, generatesProperties, classFileName, propertiesFileName,
            attributes, relationships, toManyRelationships, fetchedProperties, hasFetchedProperties,
            fetchRequestTemplates,
            // The runtime flavor's keys.
            entityNameLiteral, parentNameLiteral, objectTypeName, uniquenessConstraintsLiteral, fetchIndexes,
            declaresFetchRequest, describeFunctionName, keyPathProperties, renamingIdentifierLiteral, hasFields, fields,
            lineageFields, fieldLayoutLiteral, hasFieldNullBits
    }

    /// The table of ``Key``'s names.
    public static let keys = makeKeys()

    /// The value of one key, or nil when it is a runtime key and this is not the runtime flavor.
    public func value(for known: Key) -> MustacheValue? {
        switch known {
        case .hasParent: return .bool(hasParent)
        case .isUserOwned: return .bool(isUserOwned)
        case .isAbstract: return .bool(isAbstract)
        case .hasSubentities: return .bool(hasSubentities)
        case .generatesClass: return .bool(generatesClass)
        case .generatesProperties: return .bool(generatesProperties)
        case .attributes: return .array(attributeValues)
        case .relationships: return .array(relationshipValues)
        case .toManyRelationships: return .array(toManyRelationshipValues)
        case .fetchedProperties: return .array(fetchedPropertyValues)
        case .hasFetchedProperties: return .bool(!fetchedProperties.isEmpty)
        case .fetchRequestTemplates: return .array(fetchRequestTemplates.map { .object($0) })
        case .fetchIndexes: return runtime.map { .array($0.fetchIndexes.map { .object(FetchIndexObject($0)) }) }
        case .declaresFetchRequest: return runtime.map { .bool($0.declaresFetchRequest) }
        case .keyPathProperties: return runtime.map { .array($0.keyPathProperties.map { .object(KeyPathObject($0)) }) }
        case .hasFields: return runtime.map { _ in .bool(fields != nil) }
        case .hasFieldNullBits: return runtime.map { _ in .bool(fields?.hasNullBits ?? false) }
        case .fields: return runtime.map { _ in .array((fields?.own ?? []).map { .object(FieldObject($0)) }) }
        case .lineageFields:
            return runtime.map { _ in .array((fields?.lineage ?? []).map { .object(FieldObject($0)) }) }
        default: return writtenValue(for: known)
        }
    }

    /// Writes a text key straight into a template's output (see ``value(for:)``).
    public func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .entityName: output.append(entityName)
        case .className: output.append(className)
        case .plainClassName: output.append(plainClassName)
        case .superclassName: output.append(superclassName)
        case .classModifiers: output.append(classModifiers)
        case .codeGeneration: output.append(codeGeneration)
        case .classFileName: output.append(classFileName)
        case .propertiesFileName: output.append(propertiesFileName)
        case .hasParent, .isAbstract, .hasSubentities, .isUserOwned, .generatesClass, .generatesProperties, .attributes,
            .relationships, .toManyRelationships, .fetchedProperties, .hasFetchedProperties, .fetchRequestTemplates:
            return .notText
        case .entityNameLiteral, .parentNameLiteral, .objectTypeName, .uniquenessConstraintsLiteral,
            .describeFunctionName:
            guard let runtime else { return .absent }
            runtime.writeText(for: known, to: &output)
        case .renamingIdentifierLiteral:
            guard let runtime, runtime.renamingIdentifier != nil else { return .absent }
            runtime.writeText(for: known, to: &output)
        case .fetchIndexes, .declaresFetchRequest, .keyPathProperties, .hasFields, .fields, .lineageFields,
            .hasFieldNullBits:
            return runtime == nil ? .absent : .notText
        case .fieldLayoutLiteral:
            guard let fields else { return .absent }
            output.append(fields.layoutLiteral)
        }
        return .written
    }
}

/// An attribute's keys, plus the runtime flavor's extra keys when present.
extension AttributeContext: KeyedMustacheObject {
    /// The template keys, named as in `Templates/README.md`.
    public enum Key: String, CaseIterable, Sendable {
        case `name`, swiftName, attributeType, swiftType, isOptional, isTransient, isScalar,
            // The runtime flavor's keys.
            nameLiteral, runtimeAttributeType, runtimeGetter, runtimeSetter, isDerived, isIndexed,
            defaultValueLiteral, minValueLiteral, maxValueLiteral, regularExpressionLiteral, descriptionArguments,
            readsField, fieldValue, fieldName, fieldIndex
    }

    /// The table of ``Key``'s names.
    public static let keys = makeKeys()

    /// The value of one key, or nil when it is a runtime key and this is not the runtime flavor.
    public func value(for known: Key) -> MustacheValue? {
        switch known {
        case .isOptional: return .bool(isOptional)
        case .isTransient: return .bool(isTransient)
        case .isScalar: return .bool(isScalar)
        case .isDerived: return runtime.map { .bool($0.isDerived) }
        case .isIndexed: return runtime.map { .bool($0.isIndexed) }
        case .readsField: return runtime.map { _ in .bool(readsField) }
        case .fieldIndex: return field.map { .int($0.fieldIndex) }
        default: return writtenValue(for: known)
        }
    }

    /// Writes a text key straight into a template's output (see ``value(for:)``).
    public func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .name: output.append(name)
        case .swiftName: output.append(swiftName)
        case .attributeType: output.append(attributeType)
        case .swiftType: output.append(swiftType)
        case .isOptional, .isTransient, .isScalar: return .notText
        case .isDerived, .isIndexed, .readsField: return runtime == nil ? .absent : .notText
        case .fieldIndex: return field == nil ? .absent : .notText
        case .fieldValue:
            guard field != nil else { return .absent }
            output.append(fieldValue)
        case .fieldName:
            guard let field else { return .absent }
            output.append(field.fieldName)
        case .nameLiteral, .runtimeAttributeType, .runtimeGetter, .runtimeSetter, .defaultValueLiteral,
            .minValueLiteral, .maxValueLiteral, .regularExpressionLiteral, .descriptionArguments:
            guard let runtime else { return .absent }
            runtime.writeText(for: known, to: &output)
        }
        return .written
    }
}

/// A relationship's keys, plus the runtime flavor's extra keys when present.
extension RelationshipContext: KeyedMustacheObject {
    /// The template keys, named as in `Templates/README.md`.
    public enum Key: String, CaseIterable, Sendable {
        case `name`, swiftName, capitalizedName, destinationEntityName, destinationClassName, inverseName, isToMany,
            isToOne, isOrdered, isOptional, swiftType, collectionType, indexSetType, addToName, removeFromName,
            insertIntoName, replaceName, addObjectSelector, removeObjectSelector, addSetSelector, removeSetSelector,
            insertObjectSelector, removeObjectAtIndexSelector, insertAtIndexesSelector, removeAtIndexesSelector,
            replaceObjectSelector, replaceAtIndexesSelector,
            // The runtime flavor's keys.
            nameLiteral, destinationNameLiteral, inverseNameLiteral, runtimeGetter, runtimeSetter, deleteRule,
            isTransient, minCount, maxCount, descriptionArguments, readsField, fieldName, fieldIndex, fieldObject
    }

    /// The table of ``Key``'s names.
    public static let keys = makeKeys()

    /// The value of one key, or nil when it is a runtime key and this is not the runtime flavor.
    public func value(for known: Key) -> MustacheValue? {
        switch known {
        case .isToMany: return .bool(isToMany)
        case .isToOne: return .bool(!isToMany)
        case .isOrdered: return .bool(isOrdered)
        case .isOptional: return .bool(isOptional)
        case .isTransient: return runtime.map { .bool($0.isTransient) }
        case .minCount: return runtime.map { .int($0.minCount) }
        case .maxCount: return runtime.map { .int($0.maxCount) }
        case .readsField: return runtime.map { _ in .bool(field != nil) }
        case .fieldIndex: return field.map { .int($0.fieldIndex) }
        default: return writtenValue(for: known)
        }
    }

    /// Writes a text key straight into a template's output (see ``value(for:)``).
    public func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .name: output.append(name)
        case .swiftName: output.append(swiftName)
        case .capitalizedName: output.append(capitalizedName)
        case .destinationEntityName: output.append(destinationEntityName)
        case .destinationClassName: output.append(destinationClassName)
        case .inverseName: output.append(inverseName)
        case .swiftType:
            typeNames.writePropertyType(
                isToMany: isToMany, isOrdered: isOrdered, destination: destinationClassName, to: &output)
        case .collectionType:
            typeNames.writeCollectionType(
                isToMany: isToMany, isOrdered: isOrdered, destination: destinationClassName, to: &output)
        case .indexSetType: output.append(indexSetType)
        case .addToName, .removeFromName, .insertIntoName, .replaceName, .addObjectSelector, .removeObjectSelector,
            .addSetSelector, .removeSetSelector, .insertObjectSelector, .removeObjectAtIndexSelector,
            .insertAtIndexesSelector, .removeAtIndexesSelector, .replaceObjectSelector, .replaceAtIndexesSelector:
            writeAccessorName(known, to: &output)
        case .isToMany, .isToOne, .isOrdered, .isOptional: return .notText
        case .isTransient, .minCount, .maxCount, .readsField: return runtime == nil ? .absent : .notText
        case .fieldIndex: return field == nil ? .absent : .notText
        case .fieldName:
            guard let field else { return .absent }
            output.append(field.fieldName)
        case .fieldObject:
            guard field != nil else { return .absent }
            output.append(fieldObject)
        case .nameLiteral, .destinationNameLiteral, .inverseNameLiteral, .runtimeGetter, .runtimeSetter, .deleteRule,
            .descriptionArguments:
            guard let runtime else { return .absent }
            runtime.writeText(for: known, to: &output)
        }
        return .written
    }
}

/// A fetched property's keys.
extension FetchedPropertyContext: KeyedMustacheObject {
    /// The template keys, named as in `Templates/README.md`.
    public enum Key: String, CaseIterable, Sendable {
        case `name`, swiftName, destinationClassName, destinationEntityName, nameLiteral, predicateComment,
            descriptionArguments
    }

    /// The table of ``Key``'s names.
    public static let keys = makeKeys()

    /// The value of one key.
    public func value(for known: Key) -> MustacheValue? {
        writtenValue(for: known)
    }

    /// Writes a key straight into a template's output (see ``value(for:)``).
    public func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .name: output.append(name)
        case .swiftName: output.append(swiftName)
        case .destinationClassName: output.append(destinationClassName)
        case .destinationEntityName: output.append(destinationEntityName)
        case .nameLiteral: output.append(RuntimeContextBuilder.literal(name))
        case .predicateComment: output.append(predicateComment)
        case .descriptionArguments: output.append(descriptionArguments)
        }
        return .written
    }
}

/// A fetch index of the runtime flavor.
final class FetchIndexObject: KeyedMustacheObject {
    let context: RuntimeFetchIndexContext

    init(_ context: RuntimeFetchIndexContext) {
        self.context = context
    }

    enum Key: String, CaseIterable, Sendable {
        case nameLiteral, elementsLiteral
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        writtenValue(for: known)
    }

    func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .nameLiteral: output.append(context.nameLiteral)
        case .elementsLiteral: output.append(context.elementsLiteral)
        }
        return .written
    }
}

/// An entry of the runtime flavor's key-path map.
final class KeyPathObject: KeyedMustacheObject {
    let context: RuntimeKeyPathContext

    init(_ context: RuntimeKeyPathContext) {
        self.context = context
    }

    enum Key: String, CaseIterable, Sendable {
        case swiftName, nameLiteral
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        writtenValue(for: known)
    }

    func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .swiftName: output.append(context.swiftName)
        case .nameLiteral: output.append(context.nameLiteral)
        }
        return .written
    }
}

/// A field of a generated runtime class (``FieldContext``).
final class FieldObject: KeyedMustacheObject {
    let context: FieldContext

    init(_ context: FieldContext) {
        self.context = context
    }

    enum Key: String, CaseIterable, Sendable {
        case fieldName, fieldType, fieldKind, fieldIndex, hasNullBit, nullBit, fieldDefault, nullBitArgument,
            readNullBitArguments
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .fieldIndex: .int(context.fieldIndex)
        case .hasNullBit: .bool(context.nullBit != nil)
        case .nullBit: context.nullBit.map { .int($0) }
        default: writtenValue(for: known)
        }
    }

    func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .fieldName: output.append(context.fieldName)
        case .fieldType: output.append(context.fieldType)
        case .fieldKind: output.append(context.fieldKind)
        case .fieldIndex, .hasNullBit: return .notText
        case .nullBit: return context.nullBit == nil ? .absent : .notText
        // Text, not sections around `nullBit`: one lookup per field in the generated class's three loops.
        case .fieldDefault: if context.nullBit != nil { output.append(" = 0") }
        case .nullBitArgument: output.append(context.nullBitArgument)
        case .readNullBitArguments:
            if context.nullBit != nil {
                output.append(context.nullBitArgument)
                output.append(", in: &nulls")
            }
        }
        return .written
    }
}
