import Mustache

extension ModelContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue {
        .dictionary([
            "modelName": .string(modelName), "versionName": .string(versionName),
            "sourceFileName": .string(sourceFileName), "accessPrefix": .string(accessPrefix),
            "modelTypeName": .string(modelTypeName), "entities": .array(entities.map(\.mustacheValue)),
        ])
    }
}

extension EntityContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue {
        .dictionary([
            "entityName": .string(entityName), "className": .string(className),
            "plainClassName": .string(plainClassName), "superclassName": .string(superclassName),
            "hasParent": .bool(hasParent), "isAbstract": .bool(isAbstract), "hasSubentities": .bool(hasSubentities),
            "classModifiers": .string(classModifiers), "codeGeneration": .string(codeGeneration),
            "generatesClass": .bool(generatesClass), "generatesProperties": .bool(generatesProperties),
            "classFileName": .string(classFileName), "propertiesFileName": .string(propertiesFileName),
            "attributes": .array(attributes.map(\.mustacheValue)),
            "relationships": .array(relationships.map(\.mustacheValue)),
            "toManyRelationships": .array(toManyRelationships.map(\.mustacheValue)),
            "fetchedProperties": .array(fetchedProperties.map(\.mustacheValue)),
        ]).merging(runtime?.mustacheEntries)
    }
}

extension AttributeContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name), "swiftName": .string(swiftName), "attributeType": .string(attributeType),
            "swiftType": .string(swiftType), "isOptional": .bool(isOptional), "isTransient": .bool(isTransient),
            "isScalar": .bool(isScalar),
        ]).merging(runtime?.mustacheEntries)
    }
}

extension RelationshipContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name), "swiftName": .string(swiftName), "capitalizedName": .string(capitalizedName),
            "destinationEntityName": .string(destinationEntityName),
            "destinationClassName": .string(destinationClassName), "inverseName": .string(inverseName),
            "isToMany": .bool(isToMany), "isToOne": .bool(!isToMany), "isOrdered": .bool(isOrdered),
            "isOptional": .bool(isOptional), "swiftType": .string(swiftType),
            "collectionType": .string(collectionType), "indexSetType": .string(indexSetType),
            "addToName": .string(addToName), "removeFromName": .string(removeFromName),
            "insertIntoName": .string(insertIntoName), "replaceName": .string(replaceName),
            "addObjectSelector": .string(addObjectSelector), "removeObjectSelector": .string(removeObjectSelector),
            "addSetSelector": .string(addSetSelector), "removeSetSelector": .string(removeSetSelector),
            "insertObjectSelector": .string(insertObjectSelector),
            "removeObjectAtIndexSelector": .string(removeObjectAtIndexSelector),
            "insertAtIndexesSelector": .string(insertAtIndexesSelector),
            "removeAtIndexesSelector": .string(removeAtIndexesSelector),
            "replaceObjectSelector": .string(replaceObjectSelector),
            "replaceAtIndexesSelector": .string(replaceAtIndexesSelector),
        ]).merging(runtime?.mustacheEntries)
    }
}

extension FetchedPropertyContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue {
        .dictionary([
            "name": .string(name), "swiftName": .string(swiftName),
            "destinationClassName": .string(destinationClassName),
            "destinationEntityName": .string(destinationEntityName),
        ])
    }
}
