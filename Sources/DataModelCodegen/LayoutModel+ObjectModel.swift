import DataModel
import DataModelStoreLayout

extension LayoutModel {
    /// The store-layout description of a parsed model: entities with their own stored properties.
    ///
    /// Fetched properties have no storage and are left out; transient properties are passed on (the
    /// layout gives them no column).
    public init(_ model: ObjectModel) {
        self.init(
            entities: model.entities.map { entity in
                LayoutEntity(
                    name: entity.name, parentName: entity.parentEntity, isAbstract: entity.isAbstract,
                    attributes: entity.attributes.map { attribute in
                        LayoutAttribute(
                            name: attribute.name, type: attribute.type,
                            isTransient: attribute.isTransient, isDerived: attribute.isDerived,
                            isIndexed: attribute.isIndexed, isOptional: attribute.isOptional,
                            defaultValue: attribute.valueText(.defaultValue).flatMap {
                                AttributeValueParser.parse($0, as: attribute.type, role: .defaultValue).value
                            },
                            renamingIdentifier: attribute.renamingIdentifier,
                            allowsExternalBinaryDataStorage: attribute.type == .binary
                                && attribute.allowsExternalBinaryDataStorage)
                    },
                    relationships: entity.relationships.map { relationship in
                        LayoutRelationship(
                            name: relationship.name, destinationName: relationship.destinationEntity,
                            inverseName: relationship.inverseName, isToMany: relationship.isToMany,
                            isOrdered: relationship.isToMany && relationship.isOrdered,
                            isTransient: relationship.isTransient, renamingIdentifier: relationship.renamingIdentifier)
                    },
                    uniquenessConstraints: entity.uniquenessConstraints.map(\.properties),
                    fetchIndexes: entity.fetchIndexes.map { index in
                        LayoutFetchIndex(
                            name: index.name,
                            elements: index.elements.map {
                                LayoutFetchIndexElement(property: $0.property, isAscending: $0.isAscending)
                            })
                    },
                    renamingIdentifier: entity.renamingIdentifier)
            })
    }
}
